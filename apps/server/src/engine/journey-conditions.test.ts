import { stepConditionSchema } from '@impeto/shared';
import { describe, expect, it } from 'vitest';
import type { PersonEvent, PositionFacts } from './journey.queries.ts';
import { compileCondition } from './journey.ts';

/*
 * A journey step's condition (issue #26) as the journey stage reads it, pure: on what the person did since the
 * previous step (the facts query: conversions and the previous message's click; their page views and events) and on
 * their attributes (the audience filter's compiler and predicate, not a second implementation).
 */

const facts = (over: Partial<PositionFacts> = {}): PositionFacts => ({
  id: 'p',
  converted_entered: false,
  converted_since: false,
  clicked_previous: false,
  ...over,
});
const pageview = (url: string): PersonEvent => ({ id: 'p', kind: 'pageview', url, category: null, props: null });
const event = (category: string, props: Record<string, unknown> = {}): PersonEvent => ({
  id: 'p',
  kind: 'event',
  url: null,
  category,
  props,
});
const holds = (condition: unknown, input: { facts?: PositionFacts; events?: PersonEvent[]; attributes?: object }) =>
  compileCondition(stepConditionSchema.parse(condition))({
    facts: input.facts ?? facts(),
    events: input.events ?? [],
    attributes: (input.attributes ?? {}) as Record<string, unknown>,
  });

describe('journey step conditions', () => {
  it('not converted / not clicked read the facts since the previous step', () => {
    expect(holds({ kind: 'not_converted' }, {})).toBe(true);
    expect(holds({ kind: 'not_converted' }, { facts: facts({ converted_since: true }) })).toBe(false);
    expect(holds({ kind: 'not_clicked' }, {})).toBe(true);
    expect(holds({ kind: 'not_clicked' }, { facts: facts({ clicked_previous: true }) })).toBe(false);
  });

  it('viewed / did not view a page, with the trigger rules (contain, ==)', () => {
    const events = [pageview('https://loja.com.br/produto/42?cor=azul'), event('carrinho')];
    expect(holds({ kind: 'viewed_page', value: ['/produto'] }, { events })).toBe(true);
    expect(holds({ kind: 'viewed_page', value: ['/checkout'] }, { events })).toBe(false);
    expect(holds({ kind: 'not_viewed_page', value: ['/checkout'] }, { events })).toBe(true);
    expect(holds({ kind: 'not_viewed_page', value: ['/PRODUTO'] }, { events })).toBe(false);
    expect(
      holds({ kind: 'viewed_page', comparation: '==', value: ['https://loja.com.br/produto/42?cor=azul'] }, { events }),
    ).toBe(true);
  });

  it('sent / did not send an event, with a value of one of its properties', () => {
    const events = [event('carrinho', { valor: 150 }), pageview('https://loja.com.br/')];
    expect(holds({ kind: 'event', category: 'carrinho' }, { events })).toBe(true);
    expect(holds({ kind: 'event', category: 'checkout' }, { events })).toBe(false);
    expect(holds({ kind: 'event', category: 'carrinho', key: 'valor', value: ['150'] }, { events })).toBe(true);
    expect(holds({ kind: 'event', category: 'carrinho', key: 'valor', value: ['99'] }, { events })).toBe(false);
    expect(holds({ kind: 'no_event', category: 'checkout' }, { events })).toBe(true);
    expect(holds({ kind: 'no_event', category: 'carrinho', key: 'valor', value: ['99'] }, { events })).toBe(true);
    expect(holds({ kind: 'no_event', category: 'carrinho' }, { events })).toBe(false);
  });

  it('a person filter reads the attributes as the audience filter does', () => {
    const condition = {
      kind: 'filter',
      filter: { type: 'filter', values: [{ filter: 'user_stored_data.origin', comparation: '==', value: ['google'] }] },
    };
    expect(holds(condition, { attributes: { origin: 'google' } })).toBe(true);
    expect(holds(condition, { attributes: { origin: 'facebook' } })).toBe(false);
    expect(holds(condition, {})).toBe(false);
  });
});
