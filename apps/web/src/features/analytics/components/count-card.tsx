import type { CountWithPrevious } from '@impeto/shared';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { formatCount } from '../../../lib/format.ts';
import type { WidgetParams } from '../api/analytics-query.ts';
import { ChangeLine, StatSkeleton, StatValue } from './stat-value.tsx';
import { WidgetCard } from './widget-card.tsx';

/** A number card of the range with its change against the previous one (page views, visitors). */
export function CountCard({
  title,
  icon,
  query,
  range,
  emptyLabel,
}: {
  title: string;
  icon: ReactNode;
  query: UseQueryResult<CountWithPrevious>;
  range: WidgetParams['range'];
  emptyLabel: string;
}) {
  return (
    <WidgetCard title={title} icon={icon} query={query} skeleton={<StatSkeleton />}>
      {() => (
        <StatValue
          value={formatCount(query.data?.count ?? 0)}
          sub={
            <ChangeLine
              count={query.data?.count ?? 0}
              previous={query.data?.previous ?? 0}
              previousUntil={query.data?.previous_until}
              oneDay={range.start === range.end}
              emptyLabel={emptyLabel}
            />
          }
        />
      )}
    </WidgetCard>
  );
}
