// A module loader hook that changes nothing (bench/startup/hooks-thread.ts registers it).
export async function resolve(
  specifier: string,
  context: object,
  next: (specifier: string, context: object) => unknown,
) {
  return next(specifier, context);
}
