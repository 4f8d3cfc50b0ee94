import { fileURLToPath } from 'node:url';
import { describeInstallBesideFrameworks, describeReadmeInstall } from '../test/helpers/readme-install.js';
import { frameworksOf } from '../test/package/framework-packages.js';

// this run is on Node 24: the README's command for the SDK 3.x line
describeReadmeInstall('Node 22.15 and later', '1.10.0');
describeInstallBesideFrameworks(
  'compatibility run (Node 24)',
  frameworksOf(fileURLToPath(new URL('./package.json', import.meta.url))),
);
