/**
 * Just enough of the protobuf wire format to read an OTLP ExportTraceServiceRequest as the sink needs it:
 * each span's trace ID and whether its status is ERROR. A reader of its own rather than a generated decoder:
 * the sink reads every span the tier lets through, and decoding whole spans would make it the bottleneck.
 *
 *   ExportTraceServiceRequest { 1: ResourceSpans }  ResourceSpans { 2: ScopeSpans }  ScopeSpans { 2: Span }
 *   Span { 1: trace_id, 15: Status }  Status { 3: code }  (code 2: STATUS_CODE_ERROR)
 */

const VARINT = 0;
const FIXED64 = 1;
const LENGTH_DELIMITED = 2;
const FIXED32 = 5;
const STATUS_CODE_ERROR = 2;

/** A reader over `buffer[start, end)`. */
class Reader {
  constructor(
    readonly buffer: Buffer,
    public position: number,
    readonly end: number,
  ) {}

  done(): boolean {
    return this.position >= this.end;
  }

  varint(): number {
    let value = 0;
    let multiplier = 1;
    for (;;) {
      if (this.position >= this.end) throw new Error('OTLP request: a varint runs past its message');
      const byte = this.buffer[this.position++] as number;
      value += (byte & 0x7f) * multiplier;
      if (byte < 0x80) return value;
      multiplier *= 128;
    }
  }

  /** The field's number and wire type, at the start of a field. */
  tag(): { field: number; wireType: number } {
    const key = this.varint();
    return { field: Math.floor(key / 8), wireType: key & 7 };
  }

  /** A length-delimited field's bounds; the reader moves past it. */
  delimited(): { start: number; end: number } {
    const length = this.varint();
    const start = this.position;
    this.position += length;
    if (this.position > this.end) throw new Error('OTLP request: a field runs past its message');
    return { start, end: this.position };
  }

  skip(wireType: number): void {
    if (wireType === VARINT) this.varint();
    else if (wireType === FIXED64) this.position += 8;
    else if (wireType === LENGTH_DELIMITED) this.delimited();
    else if (wireType === FIXED32) this.position += 4;
    else throw new Error(`OTLP request: wire type ${wireType} is not one OTLP uses`);
  }

  /** Calls `each` with the bounds of every length-delimited field numbered `wanted`; skips the others. */
  each(wanted: number, each: (start: number, end: number) => void): void {
    while (!this.done()) {
      const { field, wireType } = this.tag();
      if (field === wanted && wireType === LENGTH_DELIMITED) {
        const { start, end } = this.delimited();
        each(start, end);
      } else {
        this.skip(wireType);
      }
    }
  }
}

/** Calls `onSpan` with the trace ID (hex) of each span of an OTLP/protobuf trace export, and whether it failed. */
export function readSpans(request: Buffer, onSpan: (traceId: string, error: boolean) => void): void {
  new Reader(request, 0, request.length).each(1, (resourceStart, resourceEnd) =>
    new Reader(request, resourceStart, resourceEnd).each(2, (scopeStart, scopeEnd) =>
      new Reader(request, scopeStart, scopeEnd).each(2, (spanStart, spanEnd) => {
        const span = new Reader(request, spanStart, spanEnd);
        let traceId = '';
        let error = false;
        while (!span.done()) {
          const { field, wireType } = span.tag();
          if (field === 1 && wireType === LENGTH_DELIMITED) {
            const { start, end } = span.delimited();
            traceId = request.toString('hex', start, end);
          } else if (field === 15 && wireType === LENGTH_DELIMITED) {
            const { start, end } = span.delimited();
            const status = new Reader(request, start, end);
            while (!status.done()) {
              const tag = status.tag();
              if (tag.field === 3 && tag.wireType === VARINT) error = status.varint() === STATUS_CODE_ERROR;
              else status.skip(tag.wireType);
            }
          } else {
            span.skip(wireType);
          }
        }
        onSpan(traceId, error);
      }),
    ),
  );
}
