import { describe, expect, it } from 'vitest';
import { ADD_NODE_ID, type DraftBlock, fromGraph, nextBlockType, toGraph } from './graph.ts';

const filter: DraftBlock = {
  type: 'filter',
  regex: false,
  values: [
    { filter: 'user_stored_data.navigator.browser', comparation: '==', value: ['Chrome'] },
    { filter: 'user_stored_data.client.location.country', comparation: '==', value: ['BR'], logical: 'or' },
  ],
};
const trigger: DraftBlock = {
  type: 'trigger',
  regex: false,
  values: [{ filter: 'pageview', comparation: 'contain', value: ['/produtos'], dischargeIn: [60] }],
};
const dispatcher: DraftBlock = {
  type: 'dispatcher',
  values: [
    {
      filter: 'CELL_NOTIFICATION',
      name: 'Boas-vindas',
      title: 'Olá!',
      message: 'Temos novidades',
      icon_uri: 'https://loja.com.br/icon.png',
      image: '',
      redirect_uri: 'https://loja.com.br/',
      intervalRecurrency: [86400],
    },
  ],
};
const finish: DraftBlock = {
  type: 'finish',
  values: [{ type: 'finish', filter: 'stop_momentum', value: '2030-01-01T12:00:00.000Z' }],
};

describe('toGraph / fromGraph', () => {
  it('a full momentum goes to four chained nodes and back unchanged', () => {
    const blocks = [filter, trigger, dispatcher, finish];
    const graph = toGraph(blocks);
    expect(graph.nodes.map((n) => [n.id, n.type])).toEqual([
      ['filter', 'filter'],
      ['trigger', 'trigger'],
      ['dispatcher', 'dispatcher'],
      ['finish', 'finish'],
    ]);
    expect(graph.edges.map((e) => [e.source, e.target])).toEqual([
      ['filter', 'trigger'],
      ['trigger', 'dispatcher'],
      ['dispatcher', 'finish'],
    ]);
    expect(fromGraph(graph)).toEqual(blocks);
  });

  it('a campaign (filter → dispatcher) round-trips', () => {
    const blocks = [filter, dispatcher];
    const graph = toGraph(blocks);
    expect(graph.edges).toHaveLength(1);
    expect(graph.edges[0]).toMatchObject({ source: 'filter', target: 'dispatcher' });
    expect(fromGraph(graph)).toEqual(blocks);
  });

  it('an empty list gives an empty graph and back', () => {
    const graph = toGraph([]);
    expect(graph).toEqual({ nodes: [], edges: [] });
    expect(fromGraph(graph)).toEqual([]);
  });

  it('a partial momentum (filter and trigger) round-trips, with or without the add placeholder', () => {
    const blocks = [filter, trigger];
    expect(fromGraph(toGraph(blocks))).toEqual(blocks);
    const withAdd = toGraph(blocks, { next: 'dispatcher' });
    const add = withAdd.nodes.find((n) => n.id === ADD_NODE_ID);
    expect(add).toMatchObject({ type: 'add', data: { next: 'dispatcher' } });
    expect(withAdd.edges.at(-1)).toMatchObject({ source: 'trigger', target: ADD_NODE_ID });
    expect(fromGraph(withAdd)).toEqual(blocks);
  });

  it('a single block has no edges and still comes back', () => {
    const graph = toGraph([dispatcher]);
    expect(graph.edges).toEqual([]);
    expect(fromGraph(graph)).toEqual([dispatcher]);
  });

  it('the edges, not the node list order, give the block order', () => {
    const graph = toGraph([filter, trigger, dispatcher]);
    const shuffled = { ...graph, nodes: [graph.nodes[2]!, graph.nodes[0]!, graph.nodes[1]!] };
    expect(fromGraph(shuffled)).toEqual([filter, trigger, dispatcher]);
  });

  it('marks the selected and invalid nodes and stacks them top to bottom', () => {
    const graph = toGraph([filter, trigger], { selected: 'trigger', invalid: new Set(['filter']) });
    expect(graph.nodes[0]).toMatchObject({
      selected: false,
      data: { invalid: true, step: 1 },
      position: { x: 0, y: 0 },
    });
    expect(graph.nodes[1]).toMatchObject({ selected: true, data: { invalid: false, step: 2 } });
    expect(graph.nodes[1]!.position.y).toBeGreaterThan(graph.nodes[0]!.position.y);
  });

  it('read-only graphs offer no add placeholder', () => {
    expect(toGraph([filter], { next: 'trigger', readOnly: true }).nodes).toHaveLength(1);
  });
});

describe('nextBlockType', () => {
  it('walks Filtro → Gatilho → Canal → Final for momentums', () => {
    expect(nextBlockType('momentum', [])).toBe('filter');
    expect(nextBlockType('momentum', ['filter'])).toBe('trigger');
    expect(nextBlockType('momentum', ['filter', 'trigger'])).toBe('dispatcher');
    expect(nextBlockType('momentum', ['filter', 'trigger', 'dispatcher'])).toBe('finish');
    expect(nextBlockType('momentum', ['filter', 'trigger', 'dispatcher', 'finish'])).toBeNull();
  });

  it('walks Filtro → Canal for campaigns', () => {
    expect(nextBlockType('campaign', [])).toBe('filter');
    expect(nextBlockType('campaign', ['filter'])).toBe('dispatcher');
    expect(nextBlockType('campaign', ['filter', 'dispatcher'])).toBeNull();
  });
});

describe('the diagram keeps push buttons', () => {
  it('from the stored dispatcher to the saved one', async () => {
    const { channelFromBlock, channelInput } = await import('./diagram-state.ts');
    const buttons = [{ title: 'Ver oferta', url: 'https://loja.example.com/oferta' }];
    const stored = {
      type: 'dispatcher',
      values: [{ filter: 'CELL_NOTIFICATION', title: 'Oi', notification_buttons: buttons, intervalRecurrency: [] }],
    };
    const state = channelFromBlock(stored as never, 'c-1');
    expect(state.buttons).toEqual(buttons);
    expect(channelInput(state).values?.[0]).toMatchObject({ notification_buttons: buttons });
  });
});
