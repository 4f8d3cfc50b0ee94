// The startup group's app as such (bench/startup/app.ts): bare, or under a preload.
import { answer } from './app.js';

console.log(await answer());
