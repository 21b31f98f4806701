import { compareProportions, type Proportion, personsStillNeeded } from './stats.ts';

/*
 * The sentence a marketer reads under an experiment's figures, the same on the report page and in the CSV export.
 */

const pp = new Intl.NumberFormat('pt-BR', { minimumFractionDigits: 1, maximumFractionDigits: 1 });
const count = new Intl.NumberFormat('pt-BR', { maximumFractionDigits: 0 });

/** '1,8' (percentage points, one decimal, pt-BR). */
export const formatPp = (value: number) => pp.format(Object.is(Math.round(value * 10), -0) ? 0 : value);

/** 'A variante B' or, for a message tested against a control group alone, 'A mensagem'. */
export const armSubject = (name: string, hasVariants: boolean) => (hasVariants ? `A variante ${name}` : 'A mensagem');

/**
 * 'A variante B converte 1,8 p.p. a mais que o controle (IC 95 %: 0,6 a 3,0 p.p.)' when the difference is
 * significant, else 'Ainda sem diferença significativa: faltam cerca de N pessoas por grupo'.
 */
export function experimentVerdict(subject: string, variant: Proportion, control: Proportion): string {
  const c = compareProportions(variant, control);
  if (c.significant) {
    const direction = c.lift_pp > 0 ? 'a mais' : 'a menos';
    return `${subject} converte ${formatPp(Math.abs(c.lift_pp))} p.p. ${direction} que o controle (IC 95 %: ${formatPp(c.ci_low_pp)} a ${formatPp(c.ci_high_pp)} p.p.)`;
  }
  const missing = personsStillNeeded(variant, control);
  if (missing === null) return 'Ainda sem diferença significativa: ainda não há conversões para comparar';
  return `Ainda sem diferença significativa: faltam cerca de ${count.format(missing)} ${missing === 1 ? 'pessoa' : 'pessoas'} por grupo`;
}
