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
export type DiagramNode = BlockNode | AddNode;

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
}

export const NODE_GAP = 150;
export const ADD_NODE_ID = 'add';

const edgeId = (source: string, target: string) => `${source}->${target}`;

/** Blocks → nodes (one per block, id = block type, top to bottom) and the edges that chain them in order. */
export function toGraph(blocks: readonly DraftBlock[], options: ToGraphOptions = {}): Graph {
  const { selected = null, next = null, invalid, readOnly = false } = options;
  const nodes: DiagramNode[] = blocks.map(
    (block, index): BlockNode => ({
      id: block.type,
      type: block.type,
      position: { x: 0, y: index * NODE_GAP },
      data: { block, step: index + 1, invalid: invalid?.has(block.type) ?? false, readOnly },
      selected: selected === block.type,
      draggable: false,
      deletable: false,
      connectable: false,
    }),
  );
  const edges: Edge[] = [];
  for (let i = 1; i < blocks.length; i++) {
    const source = blocks[i - 1]!.type;
    const target = blocks[i]!.type;
    edges.push({ id: edgeId(source, target), source, target, type: 'smoothstep', animated: !readOnly });
  }
  if (next && !readOnly) {
    nodes.push({
      id: ADD_NODE_ID,
      type: 'add',
      position: { x: 0, y: blocks.length * NODE_GAP },
      data: { next },
      draggable: false,
      deletable: false,
      connectable: false,
      selectable: false,
    });
    const last = blocks[blocks.length - 1];
    if (last) {
      edges.push({
        id: edgeId(last.type, ADD_NODE_ID),
        source: last.type,
        target: ADD_NODE_ID,
        type: 'smoothstep',
        className: 'diagram-edge-pending',
        style: { strokeDasharray: '6 4' },
      });
    }
  }
  return { nodes, edges };
}

const isBlockNode = (node: DiagramNode): node is BlockNode => node.type !== 'add';
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
 * The only type that may be added now: the first of the kind's order that is not present. A fresh diagram
 * walks Filtro → Gatilho → Canal → Final; a loaded draft that skipped a block gets that block offered first.
 */
export function nextBlockType(kind: DiagramKind, present: readonly string[]): DiagramBlockType | null {
  return BLOCK_ORDER[kind].find((type) => !present.includes(type)) ?? null;
}
