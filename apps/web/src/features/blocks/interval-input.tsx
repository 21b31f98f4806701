import { filterMessages, formatInterval, parseInterval } from '@impeto/shared';
import { TagsInput } from '@mantine/core';
import { IconClockHour4 } from '@tabler/icons-react';
import { useState } from 'react';

export interface IntervalInputProps {
  label: string;
  /** Seconds, one per tag. */
  value: number[];
  onChange: (seconds: number[]) => void;
  maxTags?: number;
  disabled?: boolean;
  readOnly?: boolean;
  error?: string;
  placeholder?: string;
  description?: string;
}

/**
 * Free text such as '1D 4h 30m' becomes a tag of seconds on ';', Enter, Tab or blur (spec doc 2 §5).
 * Units: A year, M month (30 days), D day, h hour, m minute, s second; case matters.
 */
export function IntervalInput({
  label,
  value,
  onChange,
  maxTags,
  disabled,
  readOnly,
  error,
  placeholder = 'Ex.: 1D 4h 30m',
  description = filterMessages.intervalHint,
}: IntervalInputProps) {
  const [search, setSearch] = useState('');
  const [parseError, setParseError] = useState<string | null>(null);

  const commit = (tags: string[]) => {
    const seconds: number[] = [];
    for (const tag of tags) {
      try {
        seconds.push(parseInterval(tag));
      } catch {
        setParseError(filterMessages.intervalError);
        // Keep the refused text so the user can fix it.
        queueMicrotask(() => setSearch(tag));
        return;
      }
    }
    setParseError(null);
    onChange(seconds);
  };

  return (
    <TagsInput
      label={label}
      description={description}
      placeholder={value.length === 0 ? placeholder : undefined}
      value={value.map(formatInterval)}
      onChange={commit}
      searchValue={search}
      onSearchChange={(text) => {
        setSearch(text);
        if (parseError && text !== '') setParseError(null);
      }}
      splitChars={[';']}
      acceptValueOnBlur
      allowDuplicates
      maxTags={maxTags}
      disabled={disabled}
      readOnly={readOnly}
      error={parseError ?? error}
      leftSection={<IconClockHour4 size={16} />}
      clearable={!readOnly && !disabled}
    />
  );
}
