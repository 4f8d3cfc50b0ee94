/** The pending approvals' questions: a wait taken once, per conversation, the table bounded with the oldest forgotten first. */
import { describe, expect, it, vi } from 'vitest';
import { MAX_PENDING_APPROVALS, rememberAsked, takeWaitSeconds } from '../../../src/adapters/ai-sdk/approval-waits.js';
import { conversationKey } from '../../../src/adapters/ai-sdk/conversation-key.js';

describe('approval waits', () => {
  it('gives the wait since the question once, and nothing for a question never asked here', async () => {
    rememberAsked('call_a', 'c');
    await new Promise((resolve) => setTimeout(resolve, 20));
    const wait = takeWaitSeconds('call_a', 'c');
    expect(wait).toBeGreaterThanOrEqual(0.015);
    expect(wait).toBeLessThan(60);
    expect(takeWaitSeconds('call_a', 'c')).toBeUndefined();
    expect(takeWaitSeconds('asked elsewhere', 'c')).toBeUndefined();
  });

  it('two conversations whose calls share an id keep a question each', () => {
    rememberAsked('call_0', 'first');
    rememberAsked('call_0', 'second');
    // the second conversation answers first: its own question, the later one
    const second = takeWaitSeconds('call_0', 'second');
    const first = takeWaitSeconds('call_0', 'first');
    expect(second).toBeGreaterThanOrEqual(0);
    expect(first).toBeGreaterThanOrEqual(second as number);
    expect(takeWaitSeconds('call_0', 'first')).toBeUndefined();
    expect(takeWaitSeconds('call_0', 'second')).toBeUndefined();
  });

  it('questions under one key (conversations alike up to the call) are answered in the order asked', () => {
    // a clock the test sets: on the real one, the order of the waits depends on the gaps between the lines
    const now = vi.spyOn(performance, 'now');
    try {
      now.mockReturnValueOnce(1_000);
      rememberAsked('call_0', 'alike');
      now.mockReturnValueOnce(3_000);
      rememberAsked('call_0', 'alike');
      now.mockReturnValueOnce(6_000);
      expect(takeWaitSeconds('call_0', 'alike')).toBe(5);
      now.mockReturnValueOnce(6_500);
      expect(takeWaitSeconds('call_0', 'alike')).toBe(3.5);
      expect(takeWaitSeconds('call_0', 'alike')).toBeUndefined();
    } finally {
      now.mockRestore();
    }
  });

  it(`remembers at most ${MAX_PENDING_APPROVALS} questions in all, forgetting the oldest first`, () => {
    rememberAsked('call_0', 'one');
    for (let i = 1; i <= MAX_PENDING_APPROVALS; i++) rememberAsked(`call_${i}`, i % 2 === 0 ? 'one' : 'two');
    expect(takeWaitSeconds('call_0', 'one')).toBeUndefined();
    expect(takeWaitSeconds('call_1', 'two')).toBeGreaterThanOrEqual(0);
    expect(takeWaitSeconds('call_2', 'one')).toBeGreaterThanOrEqual(0);
    expect(takeWaitSeconds(`call_${MAX_PENDING_APPROVALS}`, 'one')).toBeGreaterThanOrEqual(0);
    for (let i = 3; i < MAX_PENDING_APPROVALS; i++) takeWaitSeconds(`call_${i}`, i % 2 === 0 ? 'one' : 'two');
  });
});

describe('conversation key', () => {
  it("reads the user messages' text before the end given, whatever their form", () => {
    const asked = [
      { role: 'system', content: 'be brief' },
      { role: 'user', content: 'Email both users' },
    ];
    const answered = [
      { role: 'user', content: [{ type: 'text', text: 'Email both users' }] },
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'call_1' }] },
      { role: 'tool', content: [] },
    ];
    expect(conversationKey(answered, 1)).toBe(conversationKey(asked));
    expect(conversationKey(answered)).toBe(conversationKey(asked));
    expect(conversationKey([{ role: 'user', content: 'Email one user' }])).not.toBe(conversationKey(asked));
    // a separator after each message: ["ab"] is not ["a", "b"]
    expect(conversationKey([{ role: 'user', content: 'ab' }])).not.toBe(
      conversationKey([
        { role: 'user', content: 'a' },
        { role: 'user', content: 'b' },
      ]),
    );
    expect(conversationKey(undefined)).toBe(conversationKey([]));
  });
});
