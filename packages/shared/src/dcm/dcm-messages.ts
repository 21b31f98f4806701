import { type MomentumType, momentumMessages } from '../momentums/momentum.schema.ts';

/**
 * A GCD item is "conteúdo do GCD" on its pages and toasts (spec doc 2 §1, §2.6: GCD/DCM items, dynamic content);
 * §8 quotes only the momentum texts, so these follow them word for word with the GCD noun.
 */
export const dcmMessages = {
  editActive: 'Não é permitido editar conteúdos do GCD em andamento.',
  notFound: 'Conteúdo do GCD não encontrado.',
  started: 'Seu conteúdo do GCD foi iniciado com sucesso!',
  paused: 'Seu conteúdo do GCD foi pausado com sucesso!',
  removed: 'Seu conteúdo do GCD foi removido com sucesso!',
  removeFailed: 'Não foi possível remover o conteúdo do GCD. Tente novamente mais tarde.',
  saveFailed: 'Não foi possível cadastrar seu conteúdo do GCD. Tente novamente mais tarde.',
  statusFailed: 'Ocorreu um erro ao atualizar o status do seu conteúdo do GCD. Tente novamente mais tarde.',
} as const;

/** The status, removal, edit and save texts of an item's own type. */
export const itemMessages = (type: MomentumType | undefined) =>
  type === 'dcm' ? { ...momentumMessages, ...dcmMessages } : momentumMessages;
