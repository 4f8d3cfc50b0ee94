import { describeReadmeInstall } from '../test/helpers/readme-install.js';

// this run is on Node 24: the README's command for the SDK 3.x line
describeReadmeInstall('Node 22.15 and later', '1.10.0');
