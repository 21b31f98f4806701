import { describe, expect, it } from 'vitest';
import {
  ADD_STEP_NODE_ID,
  type DraftBlock,
  type DraftStep,
  fromGraph,
  fromGraphSteps,
  parseStepNodeId,
  toGraph,
} from './graph.ts';

const filter: DraftBlock = { type: 'filter', regex: false, values: [{ filter: 'all', value: [] }] };
const trigger: DraftBlock = {
  type: 'trigger',
  regex: false,
  values: [{ filter: 'pageview', comparation: 'contain', value: ['/carrinho'], dischargeIn: [] }],
};
const push = {
  filter: 'CELL_NOTIFICATION',
  name: 'Carrinho',
  title: 'Esqueceu algo?',
  message: 'Volte',
  intervalRecurrency: [],
};
const dispatcher: DraftBlock = { type: 'dispatcher', values: [push] };
const finish: DraftBlock = {
  type: 'finish',
  values: [{ type: 'finish', filter: 'stop_momentum', value: '2030-01-01T12:00:00.000Z' }],
};
const onsite = { filter: 'SUPERARE_WEBVIEW', webview_type: 'popup', intervalRecurrency: [] };
const sms = { filter: 'ZENVIA', body: 'Cupom VOLTA10', intervalRecurrency: [] };
const email = { filter: 'AWS_SES', subject: 'Seu carrinho', body: 'Ainda dá tempo', intervalRecurrency: [] };

const steps: DraftStep[] = [
  { wait: { amount: 1, unit: 'hours' }, condition: { kind: 'not_converted' }, values: [onsite] },
  {
    wait: { amount: 1, unit: 'days', worktime: true },
    condition: { kind: 'not_clicked' },
    values: [email],
    otherwise: [sms],
  },
  {
    wait: { amount: 3, unit: 'days' },
    condition: { kind: 'viewed_page', comparation: 'contain', value: ['/checkout'] },
    values: [sms],
  },
];

describe('toGraph / fromGraph with journey steps', () => {
  it('a momentum without steps gives exactly the graph it gave before (steps [] or absent)', () => {
    const blocks = [filter, trigger, dispatcher, finish];
    expect(toGraph(blocks, { steps: [] })).toEqual(toGraph(blocks));
    expect(toGraph(blocks, { steps: [], next: null })).toEqual(toGraph(blocks));
    expect(fromGraphSteps(toGraph(blocks))).toEqual([]);
  });

  it('draws each step after the message block in run order, with a split side by side, and reads it back', () => {
    const blocks = [filter, trigger, dispatcher, finish];
    const graph = toGraph(blocks, { steps });
    expect(graph.nodes.map((n) => n.id)).toEqual([
      'filter',
      'trigger',
      'dispatcher',
      'step-1-wait',
      'step-1-condition',
      'step-1-message',
      'step-2-wait',
      'step-2-condition',
      'step-2-message',
      'step-2-otherwise',
      'step-3-wait',
      'step-3-condition',
      'step-3-message',
      'finish',
    ]);
    const at = (id: string) => graph.nodes.find((n) => n.id === id)!.position;
    expect(at('step-2-message').y).toBe(at('step-2-otherwise').y);
    expect(at('step-2-message').x).toBeLessThan(at('step-2-otherwise').x);
    expect(at('step-1-wait').y).toBeGreaterThan(at('dispatcher').y);
    expect(at('finish').y).toBeGreaterThan(at('step-3-message').y);
    const labelled = graph.edges.filter((e) => e.label).map((e) => [e.source, e.target, e.label]);
    expect(labelled).toEqual([
      ['step-2-condition', 'step-2-message', 'Sim'],
      ['step-2-condition', 'step-2-otherwise', 'Não'],
    ]);
    // Both branches of the split lead on to the next step.
    expect(graph.edges.filter((e) => e.target === 'step-3-wait').map((e) => e.source)).toEqual([
      'step-2-message',
      'step-2-otherwise',
    ]);
    expect(fromGraph(graph)).toEqual(blocks);
    expect(fromGraphSteps(graph)).toEqual(steps);
  });

  it('the edges, not the node order, give the steps', () => {
    const graph = toGraph([filter, trigger, dispatcher], { steps });
    const shuffled = { ...graph, nodes: [...graph.nodes].reverse() };
    expect(fromGraphSteps(shuffled)).toEqual(steps);
    expect(fromGraph(shuffled)).toEqual([filter, trigger, dispatcher]);
  });

  it("offers 'Adicionar etapa' after the last message when asked, never in read-only", () => {
    const graph = toGraph([filter, trigger, dispatcher], {
      steps: steps.slice(0, 1),
      canAddStep: true,
      next: 'finish',
    });
    const add = graph.nodes.find((n) => n.id === ADD_STEP_NODE_ID);
    expect(add).toMatchObject({ type: 'add-step', data: { step: 2 } });
    expect(graph.edges.find((e) => e.target === ADD_STEP_NODE_ID)?.source).toBe('step-1-message');
    expect(fromGraphSteps(graph)).toEqual(steps.slice(0, 1));
    expect(fromGraph(graph)).toEqual([filter, trigger, dispatcher]);
    const view = toGraph([filter, trigger, dispatcher], { steps, canAddStep: true, readOnly: true });
    expect(view.nodes.some((n) => n.id === ADD_STEP_NODE_ID)).toBe(false);
  });

  it('marks a selected or invalid step node', () => {
    const graph = toGraph([dispatcher], { steps, selected: 'step-2-otherwise', invalid: new Set(['step-1-message']) });
    expect(graph.nodes.find((n) => n.id === 'step-2-otherwise')).toMatchObject({ selected: true });
    expect(graph.nodes.find((n) => n.id === 'step-1-message')).toMatchObject({ data: { invalid: true } });
  });

  it('parses step node ids', () => {
    expect(parseStepNodeId('step-3-otherwise')).toEqual({ step: 3, part: 'otherwise' });
    expect(parseStepNodeId('dispatcher')).toBeNull();
  });
});
