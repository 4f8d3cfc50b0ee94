import { diag } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { noticeUnsupported } from '../../src/internal/version-range.js';
import { useDiagLog } from '../helpers/diag-log.js';

describe('a framework version outside the supported range', () => {
  const logged = useDiagLog();

  it('is one diag warning, once, naming the package, the range and the command that installs a supported one', () => {
    const notice = noticeUnsupported(diag, 'ai', { from: '6.0.0', belowMajor: 8 });
    const exports = {};
    expect(notice(exports, '5.0.0')).toBe(exports);
    notice(exports, '5.0.0');
    notice(exports, '7.0.0');
    expect(logged).toEqual([
      'ai 5.0.0 is outside the supported range >=6.0.0 <8: its tool calls are not observed ' +
        '(install a supported one: npm install "ai@>=6.0.0 <8")',
    ]);
  });
});
