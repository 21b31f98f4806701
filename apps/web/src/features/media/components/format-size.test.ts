import { describe, expect, it } from 'vitest';
import { formatFileSize } from './format-size.ts';

describe('media size', () => {
  it('shows KB (1 KB = 1024 bytes) with one decimal below 1000 KB', () => {
    expect(formatFileSize(0)).toBe('0,0 KB');
    expect(formatFileSize(512)).toBe('0,5 KB');
    expect(formatFileSize(1024)).toBe('1,0 KB');
    expect(formatFileSize(150 * 1024)).toBe('150,0 KB');
    expect(formatFileSize(999 * 1024)).toBe('999,0 KB');
  });

  it('switches to MB from 1000 KB up', () => {
    expect(formatFileSize(1000 * 1024)).toBe('1,0 MB');
    expect(formatFileSize(1.5 * 1024 * 1024)).toBe('1,5 MB');
    expect(formatFileSize(5 * 1024 * 1024)).toBe('5,0 MB');
  });
});
