import type { NextConfig } from 'next';

const nextConfig: NextConfig = {
  // The AI SDK loaded by Node, not bundled: an OpenTelemetry instrumentation patches a package as Node
  // loads it, and a bundled copy is never loaded by Node (its tool calls would not be observed).
  serverExternalPackages: ['ai'],
  // this folder is the app's root (the repository around it has a lockfile of its own)
  turbopack: { root: import.meta.dirname },
};

export default nextConfig;
