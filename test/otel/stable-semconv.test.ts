import * as semanticConventions from '@opentelemetry/semantic-conventions';
import { describe, expect, it } from 'vitest';
import * as stable from '../../src/otel/stable-semconv.js';

describe('the stable semantic-convention names this package copies', () => {
  it('each is the constant @opentelemetry/semantic-conventions exports under the same name', () => {
    const copied = Object.entries(stable);
    expect(copied).toHaveLength(17);
    const canonical = new Map(Object.entries(semanticConventions));
    for (const [name, value] of copied) expect(value, name).toBe(canonical.get(name));
  });
});
