import { describe, expect, it } from 'vitest';
import { SELECTOR_CASES } from './css-selector.cases.ts';
import { isValidSelector } from './css-selector.ts';

describe('isValidSelector', () => {
  for (const [selector, valid] of SELECTOR_CASES)
    it(`${valid ? 'accepts' : 'refuses'} ${JSON.stringify(selector)} as querySelector does`, () => {
      expect(isValidSelector(selector)).toBe(valid);
    });
});
