// The span tree of one agent run, as a trace viewer would show it: children under their parent in
// start order, when each started (relative to the run), how long it took, and what failed.
import { SpanStatusCode } from '@opentelemetry/api';
import { hrTimeToMilliseconds } from '@opentelemetry/core';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import { ATTR_ERROR_TYPE } from '@opentelemetry/semantic-conventions';
import { ATTR_TOOL_CALL_ERROR_OUTCOME } from 'otel-tool-calls/semconv';

export function formatSpanTree(spans: readonly ReadableSpan[]): string {
  const ids = new Set(spans.map((span) => span.spanContext().spanId));
  const childrenOf = (span: ReadableSpan | undefined) =>
    spans
      .filter((child) =>
        span
          ? child.parentSpanContext?.spanId === span.spanContext().spanId
          : !ids.has(child.parentSpanContext?.spanId ?? ''),
      )
      .sort((a, b) => hrTimeToMilliseconds(a.startTime) - hrTimeToMilliseconds(b.startTime));

  const rows: Array<{ label: string; span: ReadableSpan; root: ReadableSpan }> = [];
  const walk = (span: ReadableSpan, root: ReadableSpan, prefix: string, branch: string) => {
    rows.push({ label: `${prefix}${branch}${span.name}`, span, root });
    const children = childrenOf(span);
    const childPrefix = prefix + (branch === '' ? '' : branch === '└─ ' ? '   ' : '│  ');
    children.forEach((child, index) => {
      walk(child, root, childPrefix, index === children.length - 1 ? '└─ ' : '├─ ');
    });
  };
  for (const root of childrenOf(undefined)) walk(root, root, '', '');

  const width = Math.max(...rows.map(({ label }) => label.length));
  return rows
    .map(({ label, span, root }) => {
      const at = hrTimeToMilliseconds(span.startTime) - hrTimeToMilliseconds(root.startTime);
      const timing = `${ms(hrTimeToMilliseconds(span.duration)).padStart(7)}  at +${ms(at)}`;
      return `${label.padEnd(width)}  ${timing.padEnd(22)}${errorMark(span)}`.trimEnd();
    })
    .join('\n');
}

const ms = (value: number) => `${Math.round(value)} ms`;

function errorMark(span: ReadableSpan): string {
  if (span.status.code !== SpanStatusCode.ERROR) return '';
  const type = span.attributes[ATTR_ERROR_TYPE];
  const outcome = span.attributes[ATTR_TOOL_CALL_ERROR_OUTCOME];
  const facts = [type, outcome].filter((fact) => fact !== undefined).join(', ');
  return `✗ ${facts ? `[${facts}] ` : ''}${span.status.message ?? ''}`;
}
