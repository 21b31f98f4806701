/**
 * Serves the test shop for a demo or a manual check of script verification:
 *   node --import tsx e2e/test-site/cli.ts --public-url http://127.0.0.1:8080 --id G-XXXXXXXXXXXX --port 8090
 * Options: --no-snippet, --no-sw (serve the pages without the tag / without /cn_sw.min.js). Ctrl+C stops it.
 */
import { parseArgs } from 'node:util';
import { startTestSite } from './site.ts';

const usage =
  'uso: node --import tsx e2e/test-site/cli.ts --public-url <url do Ímpeto> --id <gero_id> [--port 8090] [--no-snippet] [--no-sw]';

let values: {
  'public-url'?: string;
  id?: string;
  port?: string;
  'no-snippet'?: boolean;
  'no-sw'?: boolean;
  help?: boolean;
};
try {
  ({ values } = parseArgs({
    options: {
      'public-url': { type: 'string' },
      id: { type: 'string' },
      port: { type: 'string' },
      'no-snippet': { type: 'boolean' },
      'no-sw': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  }));
} catch (err) {
  console.error(`${(err as Error).message}\n${usage}`);
  process.exit(2);
}

if (values.help) {
  console.log(usage);
  process.exit(0);
}
const publicUrl = values['public-url'];
const port = values.port === undefined ? 0 : Number(values.port);
if (
  !publicUrl ||
  !/^https?:\/\//.test(publicUrl) ||
  !values.id ||
  !Number.isInteger(port) ||
  port < 0 ||
  port > 65535
) {
  console.error(usage);
  process.exit(2);
}

const site = await startTestSite({
  publicUrl,
  geroId: values.id,
  withSnippet: !values['no-snippet'],
  withServiceWorker: !values['no-sw'],
  port,
});
console.log(site.url);

const stop = () => {
  void site.close().then(() => process.exit(0));
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
