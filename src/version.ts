/** This package's version, reported as the instrumentation scope version. */
export const VERSION = '0.1.0';
