import { experimentMessages } from '@impeto/shared';

/** Why a delivery ended without being sent, or waits again: the text stored in `deliveries.error`. */
export const engineMessages = {
  notActive: 'O momentum não está mais ativo.',
  finished: 'O momentum foi concluído.',
  expired: 'A data de finalização do momentum passou antes do envio.',
  goalReached: 'O visitante chegou à página de objetivo.',
  outOfAudience: 'O visitante não está mais no público do filtro.',
  noChannel: 'Canal de envio indisponível para este momentum.',
  tooManyAttempts: 'Falhou após várias tentativas.',
  // A qualified person the channel cannot reach: recorded `skipped` with one of these (qualify.ts, reachability).
  noPushSubscription: 'Visitante sem inscrição de push.',
  noPhone: 'Visitante sem telefone.',
  smsOptOut: 'O visitante pediu para não receber SMS.',
  noEmail: 'Visitante sem e-mail.',
  emailOptOut: 'O visitante cancelou o recebimento de e-mails.',
  noProviderChannel: 'O domínio não tem este canal integrado (ou ele foi desativado).',
  credentialsRefused: 'Credenciais recusadas pelo provedor',
  frequencyCap: 'limite de frequência',
  // Held out by an experiment (engine/arm.ts): recorded `skipped`, nothing sent, no frequency cap used.
  controlGroup: experimentMessages.heldOut,
  globalControlGroup: experimentMessages.heldOutGlobal,
} as const;
