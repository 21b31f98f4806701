import type { AnalyticsRange } from '@impeto/shared';
import { InputBase } from '@mantine/core';
import { IconCalendar } from '@tabler/icons-react';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';

const RangePickerField = lazy(() => import('./range-picker-field.tsx'));

const shown = (day: string) => day.split('-').reverse().join('/');

/**
 * The period picker. Until it is first used it is a look-alike button (same size, icon and DD/MM/YYYY text), so the
 * calendar code and its styles (~19 KB gzipped) stay out of the dashboard's first load; a click loads the real
 * picker and opens it.
 */
export function RangePicker({ value, onChange }: { value: AnalyticsRange; onChange: (range: AnalyticsRange) => void }) {
  const [wanted, setWanted] = useState(false);
  const field = useRef<HTMLButtonElement>(null);
  const opened = useRef(false);

  useEffect(() => {
    if (!wanted || opened.current) return;
    const open = () => {
      if (!field.current) return requestAnimationFrame(open);
      opened.current = true;
      field.current.click();
    };
    open();
  }, [wanted]);

  const lookAlike = (
    <InputBase
      component="button"
      type="button"
      aria-label="Período"
      pointer
      leftSection={<IconCalendar size={16} />}
      miw={230}
      onClick={() => setWanted(true)}
      onKeyDown={(event) => {
        if (event.key === 'Enter' || event.key === ' ' || event.key === 'ArrowDown') setWanted(true);
      }}
    >
      {`${shown(value.start)} – ${shown(value.end)}`}
    </InputBase>
  );
  if (!wanted) return lookAlike;
  return (
    <Suspense fallback={lookAlike}>
      <RangePickerField ref={field} value={value} onChange={onChange} />
    </Suspense>
  );
}
