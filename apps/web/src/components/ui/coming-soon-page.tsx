import { Badge, EmptyState, Paper } from '@mantine/core';
import type { ReactNode } from 'react';
import { usePageTitle } from '../../lib/page-title.ts';
import { PageHeader } from './page-header.tsx';

/** The placeholder of a page whose issue has not landed yet: a real empty state, no filler text. */
export function ComingSoonPage({ title, icon, description }: { title: string; icon: ReactNode; description: string }) {
  usePageTitle(title);
  return (
    <>
      <PageHeader title={title} />
      <Paper withBorder p="xl" radius="lg">
        <EmptyState py="xl" variant="light" size="lg" icon={icon} title="Em breve" description={description}>
          <EmptyState.Actions>
            <Badge variant="light" size="lg">
              Em desenvolvimento
            </Badge>
          </EmptyState.Actions>
        </EmptyState>
      </Paper>
    </>
  );
}
