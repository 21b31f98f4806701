import type { Edge, Node } from '@xyflow/react';

// The diagram is a view of the model (STYLE.md rule 8): the momentum's `momentums` blocks are the truth,
// React Flow's nodes and edges are derived from them here and read back by fromGraph.

export type DiagramKind = 'momentum' | 'campaign';
export type DiagramBlockType = 'filter' | 'trigger' | 'dispatcher' | 'finish';

/** A block in its wire shape (DESIGN.md §11), possibly still incomplete while it is being edited. */
export interface DraftBlock {
  type: DiagramBlockType;
  regex?: boolean;
  values: Record<string, unknown>[];
}

/** Blocks are added once each, in this order (spec doc 2 §2.4); campaigns have no trigger or finish. */
export const BLOCK_ORDER: Record<DiagramKind, readonly DiagramBlockType[]> = {
  momentum: ['filter', 'trigger', 'dispatcher', 'finish'],
  campaign: ['filter', 'dispatcher'],
};

export interface BlockNodeData extends Record<string, unknown> {
  block: DraftBlock;
  /** 1-based position in the chain. */
  step: number;
  /** The block does not pass the shared schema yet. */
  invalid: boolean;
  readOnly: boolean;
}
export interface AddNodeData extends Record<string, unknown> {
  next: DiagramBlockType;
}
export type BlockNode = Node<BlockNodeData, DiagramBlockType>;
export type AddNode = Node<AddNodeData, 'add'>;

/**
 * A journey step (issue #26) in its wire shape (`steps[i]` beside `momentums`), possibly incomplete while edited.
 * On the board it draws after the message block as a wait, a condition and its message (and, with `otherwise`, the
 * split's 'Não' message beside it).
 */
export interface DraftStep {
  wait: Record<string, unknown>;
  condition: Record<string, unknown>;
  values: Record<string, unknown>[];
  otherwise?: Record<string, unknown>[] | null;
  /** 'Teste A/B' of the step's message (issue #26): the wire's variants, kept on its message node. */
  variants?: Record<string, unknown>[] | null;
}
export type StepPart = 'wait' | 'condition' | 'message' | 'otherwise';
export type StepNodeType = 'wait' | 'condition' | 'message';
export interface StepNodeData extends Record<string, unknown> {
  /** 1-based: step 1 is `steps[0]` (step 0 is the message block). */
  step: number;
  part: StepPart;
  /** The part of the step this node shows (`wait`, `condition`, or a message's `values`). */
  wait?: Record<string, unknown>;
  condition?: Record<string, unknown>;
  values?: Record<string, unknown>[];
  /** The main message's 'Teste A/B' variants (the wire's), when it has them. */
  variants?: Record<string, unknown>[];
  /** The condition splits in two branches ('Sim' / 'Não'). */
  split: boolean;
  invalid: boolean;
  readOnly: boolean;
}
export interface AddStepNodeData extends Record<string, unknown> {
  /** The number the new step gets. */
  step: number;
}
export type StepNode = Node<StepNodeData, StepNodeType>;
export type AddStepNode = Node<AddStepNodeData, 'add-step'>;
export type DiagramNode = BlockNode | AddNode | StepNode | AddStepNode;

export interface Graph {
  nodes: DiagramNode[];
  edges: Edge[];
}

export interface ToGraphOptions {
  /** Id (block type) of the node whose form is open. */
  selected?: string | null;
  /** The type the 'add' placeholder offers; null or absent shows none. */
  next?: DiagramBlockType | null;
  invalid?: ReadonlySet<string>;
  readOnly?: boolean;
  /** Journey steps drawn after the message block (issue #26); absent or empty: today's chain exactly. */
  steps?: readonly DraftStep[];
  /** Offer 'Adicionar etapa' after the last message (a momentum with a message block and fewer than 5 steps). */
  canAddStep?: boolean;
}

export const NODE_GAP = 150;
export const ADD_NODE_ID = 'add';
export const ADD_STEP_NODE_ID = 'add-step';
/** A split's two messages sit this far left and right of the chain (node width 300 + a gap). */
export const BRANCH_OFFSET = 170;

export const stepNodeId = (step: number, part: StepPart) => `step-${step}-${part}`;
/** 'step-2-otherwise' → { step: 2, part: 'otherwise' }; null for a block's id. */
export function parseStepNodeId(id: string | null | undefined): { step: number; part: StepPart } | null {
  const match = /^step-(\d+)-(wait|condition|message|otherwise)$/.exec(id ?? '');
  return match ? { step: Number(match[1]), part: match[2] as StepPart } : null;
}

const edgeId = (source: string, target: string) => `${source}->${target}`;

/**
 * Blocks → nodes (one per block, id = block type, top to bottom) and the edges that chain them in order. A journey's
 * steps follow the message block (wait → condition → message, a split's two messages side by side) and come before
 * the finish block; without steps the graph is the blocks' chain alone.
 */
export function toGraph(blocks: readonly DraftBlock[], options: ToGraphOptions = {}): Graph {
  const { selected = null, next = null, invalid, readOnly = false, steps = [], canAddStep = false } = options;
  const dispatcherAt = blocks.findIndex((b) => b.type === 'dispatcher');
  const journey = dispatcherAt >= 0 && (steps.length > 0 || (canAddStep && !readOnly));
  const nodes: DiagramNode[] = [];
  const edges: Edge[] = [];
  const link = (source: string, target: string, extra: Partial<Edge> = {}) =>
    edges.push({ id: edgeId(source, target), source, target, type: 'smoothstep', animated: !readOnly, ...extra });
  const fixed = { draggable: false, deletable: false, connectable: false } as const;
  let row = 0;
  /** The nodes the next one is linked from (a split's two messages both lead on). */
  let tails: string[] = [];
  const blockNode = (block: DraftBlock, index: number) => {
    nodes.push({
      id: block.type,
      type: block.type,
      position: { x: 0, y: row * NODE_GAP },
      data: { block, step: index + 1, invalid: invalid?.has(block.type) ?? false, readOnly },
      selected: selected === block.type,
      ...fixed,
    });
    for (const tail of tails) link(tail, block.type);
    tails = [block.type];
    row++;
  };
  type StepPartData = Pick<StepNodeData, 'step' | 'part' | 'wait' | 'condition' | 'values' | 'split'>;
  const stepNode = (id: string, type: StepNodeType, x: number, data: StepPartData) =>
    nodes.push({
      id,
      type,
      position: { x, y: row * NODE_GAP },
      data: { ...data, invalid: invalid?.has(id) ?? false, readOnly } as StepNodeData,
      selected: selected === id,
      ...fixed,
    });

  blocks.forEach((block, index) => {
    blockNode(block, index);
    if (!journey || index !== dispatcherAt) return;
    steps.forEach((s, i) => {
      const n = i + 1;
      const split = Boolean(s.otherwise?.length);
      const wait = stepNodeId(n, 'wait');
      const condition = stepNodeId(n, 'condition');
      const message = stepNodeId(n, 'message');
      const otherwise = stepNodeId(n, 'otherwise');
      stepNode(wait, 'wait', 0, { step: n, part: 'wait', wait: s.wait, split });
      for (const tail of tails) link(tail, wait);
      row++;
      stepNode(condition, 'condition', 0, { step: n, part: 'condition', condition: s.condition, split });
      link(wait, condition);
      row++;
      stepNode(message, 'message', split ? -BRANCH_OFFSET : 0, {
        step: n,
        part: 'message',
        values: s.values,
        split,
        ...(s.variants?.length ? { variants: s.variants } : {}),
      });
      if (split) {
        stepNode(otherwise, 'message', BRANCH_OFFSET, {
          step: n,
          part: 'otherwise',
          values: s.otherwise ?? [],
          split,
        });
        link(condition, message, { label: 'Sim' });
        link(condition, otherwise, { label: 'Não' });
        tails = [message, otherwise];
      } else {
        link(condition, message);
        tails = [message];
      }
      row++;
    });
    if (canAddStep && !readOnly) {
      nodes.push({
        id: ADD_STEP_NODE_ID,
        type: 'add-step',
        position: { x: 0, y: row * NODE_GAP },
        data: { step: steps.length + 1 },
        ...fixed,
        selectable: false,
      });
      for (const tail of tails)
        link(tail, ADD_STEP_NODE_ID, {
          animated: false,
          className: 'diagram-edge-pending',
          style: { strokeDasharray: '6 4' },
        });
      tails = [ADD_STEP_NODE_ID];
      row++;
    }
  });
  if (next && !readOnly) {
    nodes.push({
      id: ADD_NODE_ID,
      type: 'add',
      position: { x: 0, y: row * NODE_GAP },
      data: { next },
      ...fixed,
      selectable: false,
    });
    for (const tail of tails)
      edges.push({
        id: edgeId(tail, ADD_NODE_ID),
        source: tail,
        target: ADD_NODE_ID,
        type: 'smoothstep',
        className: 'diagram-edge-pending',
        style: { strokeDasharray: '6 4' },
      });
  }
  return { nodes, edges };
}

const STEP_NODE_TYPES: readonly string[] = ['wait', 'condition', 'message', 'add-step'];
const isBlockNode = (node: DiagramNode): node is BlockNode =>
  node.type !== 'add' && !STEP_NODE_TYPES.includes(node.type ?? '');
const isStepNode = (node: DiagramNode | undefined): node is StepNode =>
  node?.type === 'wait' || node?.type === 'condition' || node?.type === 'message';
const rank = (type: string) => BLOCK_ORDER.momentum.indexOf(type as DiagramBlockType);

/**
 * Nodes and edges → blocks, following the edges from the node nothing points to. Nodes left off the
 * chain (no edges yet) come after it in the blocks' canonical order. The 'add' placeholder is not a block.
 */
export function fromGraph(graph: Graph): DraftBlock[] {
  const blockNodes = graph.nodes.filter(isBlockNode);
  const byId = new Map(blockNodes.map((n) => [n.id, n]));
  const links = graph.edges.filter((e) => byId.has(e.source) && byId.has(e.target));
  const nextOf = new Map(links.map((e) => [e.source, e.target]));
  const hasIncoming = new Set(links.map((e) => e.target));

  const chain: BlockNode[] = [];
  const seen = new Set<string>();
  let current = blockNodes.find((n) => !hasIncoming.has(n.id) && nextOf.has(n.id));
  while (current && !seen.has(current.id)) {
    seen.add(current.id);
    chain.push(current);
    const nextId = nextOf.get(current.id);
    current = nextId ? byId.get(nextId) : undefined;
  }
  const rest = blockNodes
    .filter((n) => !seen.has(n.id))
    .sort((a, b) => rank(a.data.block.type) - rank(b.data.block.type));
  return [...chain, ...rest].map((n) => n.data.block);
}

/**
 * Nodes and edges → the journey's steps, following the edges from the message block: each wait leads to its
 * condition, the condition to its message ('Sim') and, in a split, its 'Não' message; the main message leads on to
 * the next step's wait. A board without step nodes gives [].
 */
export function fromGraphSteps(graph: Graph): DraftStep[] {
  const byId = new Map(graph.nodes.map((n) => [n.id, n]));
  const targets = (id: string) =>
    graph.edges
      .filter((e) => e.source === id)
      .map((e) => byId.get(e.target))
      .filter(isStepNode);
  const steps: DraftStep[] = [];
  const seen = new Set<string>();
  let wait = targets('dispatcher').find((n) => n.type === 'wait');
  while (wait && !seen.has(wait.id)) {
    seen.add(wait.id);
    const condition = targets(wait.id).find((n) => n.type === 'condition');
    if (!condition) break;
    const messages = targets(condition.id).filter((n) => n.type === 'message');
    const main = messages.find((n) => n.data.part === 'message');
    const otherwise = messages.find((n) => n.data.part === 'otherwise');
    if (!main) break;
    steps.push({
      wait: wait.data.wait ?? {},
      condition: condition.data.condition ?? {},
      values: main.data.values ?? [],
      ...(otherwise ? { otherwise: otherwise.data.values ?? [] } : {}),
      ...(main.data.variants?.length ? { variants: main.data.variants } : {}),
    });
    wait = targets(main.id).find((n) => n.type === 'wait');
  }
  return steps;
}

/**
 * The only type that may be added now: the first of the kind's order that is not present. A fresh diagram
 * walks Filtro → Gatilho → Canal → Final; a loaded draft that skipped a block gets that block offered first.
 */
export function nextBlockType(kind: DiagramKind, present: readonly string[]): DiagramBlockType | null {
  return BLOCK_ORDER[kind].find((type) => !present.includes(type)) ?? null;
}
