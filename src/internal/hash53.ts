/**
 * cyrb53: a 53-bit string hash (two 32-bit halves), synchronous on every runtime the package supports
 * (WebCrypto's `digest` is asynchronous; `node:crypto` is Node's). Two different inputs share a hash with
 * odds of 2^-53. Fed one string or several in turn (`add`), each digested once.
 */
export class Hash53 {
  private h1 = 0xdeadbeef;
  private h2 = 0x41c6ce57;

  add(text: string): this {
    for (let index = 0; index < text.length; index++) {
      const code = text.charCodeAt(index);
      this.h1 = Math.imul(this.h1 ^ code, 2654435761);
      this.h2 = Math.imul(this.h2 ^ code, 1597334677);
    }
    return this;
  }

  /** The hash of what was added, a whole number below 2^53. */
  digest(): number {
    let { h1, h2 } = this;
    h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
    h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
    return 4294967296 * (2097151 & h2) + (h1 >>> 0);
  }
}
