import { fileURLToPath } from 'node:url';
import { describeInstallBesideFrameworks, describeReadmeInstall } from '../helpers/readme-install.js';
import { frameworksOf } from './framework-packages.js';

describeReadmeInstall('Node 20', '1.9.1');
describeInstallBesideFrameworks(
  'main run (Node 20)',
  frameworksOf(fileURLToPath(new URL('../../package.json', import.meta.url))),
);
