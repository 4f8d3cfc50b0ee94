import { describeReadmeInstall } from '../helpers/readme-install.js';

describeReadmeInstall('Node 20', '1.9.1');
