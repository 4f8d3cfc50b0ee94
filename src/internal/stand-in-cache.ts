/**
 * The stand-ins zero-code makes for a framework's tools, one per listener and original: the same
 * tool gets the same stand-in on every call, and a new listener (a new config) makes new ones, the
 * old going with the old listener (both maps weak).
 */
export function standInCache<Original extends object, StandIn>(): (
  listener: object,
  original: Original,
  make: () => StandIn,
) => StandIn {
  const byListener = new WeakMap<object, WeakMap<Original, StandIn>>();
  return (listener, original, make) => {
    let byOriginal = byListener.get(listener);
    if (byOriginal === undefined) {
      byOriginal = new WeakMap();
      byListener.set(listener, byOriginal);
    }
    if (byOriginal.has(original)) return byOriginal.get(original) as StandIn;
    const standIn = make();
    byOriginal.set(original, standIn);
    return standIn;
  };
}
