import { diag } from '@opentelemetry/api';

/**
 * Where this package's own failures and warnings go: the global `diag` logger, under this
 * package's name, so that an app can tell them apart and nothing reaches its console unasked.
 */
export const logger = diag.createComponentLogger({ namespace: 'otel-tool-calls' });
