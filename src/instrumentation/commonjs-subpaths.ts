import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { isSupported, type SupportedVersions } from '../internal/version-range.js';

/**
 * A CommonJS file a patch needs that InstrumentationBase cannot hook: require-in-the-middle finds
 * a package's internal files by resolving the package's main entry first, and a package whose
 * `exports` has no loadable "." (the MCP SDK 1.x: "." points to a file it does not ship) is never
 * hooked. These are hooked by the specifier the app requires (`@modelcontextprotocol/sdk/server/mcp.js`).
 */
export interface CommonJsSubpath {
  readonly specifiers: readonly string[];
  readonly supported: SupportedVersions;
  readonly patch: (exports: never) => unknown;
  readonly unpatch: (exports: never) => void;
  /** Called instead of `patch` for a version outside `supported`. */
  readonly unsupported: (exports: unknown, version: string | undefined) => void;
}

interface Hooked {
  readonly subpath: CommonJsSubpath;
  readonly exports: never;
}

/** Where a failure to hook is said: the instrumentation's `diag` logger. */
interface Logger {
  warn(message: string): void;
}

type RequireHook = new (
  modules: string[],
  options: { internals: boolean },
  onRequire: (exports: unknown, name: string, basedir?: string) => unknown,
) => { unhook(): void };

/** Hooks `subpaths` as they are required; `enable()`/`disable()` patch and unpatch what was loaded. */
export class CommonJsSubpathHooks {
  private readonly loaded: Hooked[] = [];
  private enabled = false;
  private hooked = false;

  constructor(
    private readonly subpaths: readonly CommonJsSubpath[],
    private readonly logger: Logger,
  ) {}

  enable(): void {
    if (this.enabled) return;
    this.enabled = true;
    for (const { subpath, exports } of this.loaded) subpath.patch(exports);
    if (this.hooked || this.subpaths.length === 0) return;
    this.hooked = true;
    let Hook: RequireHook;
    try {
      Hook = loadRequireHook(import.meta.url, ['@opentelemetry/instrumentation', 'require-in-the-middle']);
    } catch (error) {
      // the app runs on (an instrumentation never stops it): only these files go unobserved
      this.logger.warn(
        `cannot hook ${this.subpaths.flatMap((subpath) => subpath.specifiers).join(', ')} (require-in-the-middle ` +
          `not found from @opentelemetry/instrumentation: ${(error as Error).message}); their tool calls are not observed`,
      );
      return;
    }
    for (const subpath of this.subpaths) {
      new Hook([...subpath.specifiers], { internals: false }, (exports, _name, basedir) => {
        const version = basedir === undefined ? undefined : packageVersion(basedir);
        if (!isSupported(version, subpath.supported)) {
          subpath.unsupported(exports, version);
          return exports;
        }
        if (this.loaded.some((hooked) => hooked.exports === exports)) return exports;
        this.loaded.push({ subpath, exports: exports as never });
        if (this.enabled) subpath.patch(exports as never);
        return exports;
      });
    }
  }

  disable(): void {
    if (!this.enabled) return;
    this.enabled = false;
    for (const { subpath, exports } of this.loaded) subpath.unpatch(exports);
  }
}

/**
 * require-in-the-middle as @opentelemetry/instrumentation has it (a dependency of that package, not of this
 * one), resolved by Node at run time from `fromUrl`. The names come in as arguments: a bundler that sees
 * `createRequire(import.meta.url).resolve('<a literal>')` resolves it at build time, and Turbopack (Next.js)
 * puts its module id where Node's `createRequire` wants a path, which threw at `enable()`.
 */
function loadRequireHook(fromUrl: string, [instrumentation, hook]: readonly [string, string]): RequireHook {
  const requireFromInstrumentation = createRequire(createRequire(fromUrl).resolve(instrumentation));
  return (requireFromInstrumentation(hook) as { Hook: RequireHook }).Hook;
}

function packageVersion(basedir: string): string | undefined {
  try {
    const { version } = JSON.parse(readFileSync(join(basedir, 'package.json'), 'utf8')) as { version?: unknown };
    return typeof version === 'string' ? version : undefined;
  } catch {
    return undefined;
  }
}
