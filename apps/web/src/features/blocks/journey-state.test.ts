import { journeyMessages } from '@impeto/shared';
import { describe, expect, it } from 'vitest';
import {
  checkCondition,
  checkExit,
  checkWait,
  conditionFromWire,
  conditionInput,
  describeCondition,
  emptyExit,
  exitFromWire,
  exitInput,
  stepFromWire,
  stepInput,
} from './journey-state.ts';

/* The journey step's state ↔ wire (issue #26), shared by the diagram and the v2 form. */

describe('journey step state', () => {
  it('every condition kind goes to the wire and back unchanged', () => {
    const conditions = [
      { kind: 'not_converted' },
      { kind: 'not_clicked' },
      { kind: 'viewed_page', comparation: 'contain', value: ['/checkout'] },
      { kind: 'not_viewed_page', comparation: '==', value: ['https://loja.com.br/obrigado'] },
      { kind: 'event', category: 'compra' },
      { kind: 'no_event', category: 'cupom', key: 'codigo', comparation: '==', value: ['VOLTA10'] },
      {
        kind: 'filter',
        filter: {
          type: 'filter',
          regex: false,
          values: [{ filter: 'user_stored_data.navigator.browser', comparation: '==', value: ['Chrome'] }],
        },
      },
    ];
    for (const c of conditions) expect(conditionInput(conditionFromWire(c))).toEqual(c);
  });

  it('a step with its split round-trips; the message is read and written by the caller', () => {
    const wire = {
      wait: { amount: 3, unit: 'hours', worktime: true },
      condition: { kind: 'not_clicked' },
      values: [{ filter: 'ZENVIA', body: 'a' }],
      otherwise: [{ filter: 'ZENVIA', body: 'b' }],
    };
    const state = stepFromWire(wire, (v) => (v as { body: string }).body);
    expect(state.message).toBe('a');
    expect(state.otherwise).toBe('b');
    expect(stepInput(state, (m) => ({ filter: 'ZENVIA', body: m }))).toEqual(wire);
  });

  it('checks the wait and the condition with the shared schema (pt-BR)', () => {
    expect(checkWait({ amount: 1, unit: 'days', worktime: false })).toEqual({});
    expect(checkWait({ amount: '', unit: 'days', worktime: false })).toEqual({ amount: journeyMessages.waitInvalid });
    expect(Object.values(checkWait({ amount: 91, unit: 'days', worktime: false }))).toEqual([
      journeyMessages.waitInvalid,
    ]);
    expect(checkCondition(conditionFromWire({ kind: 'viewed_page', value: [] }))).toEqual({
      value: journeyMessages.pageRequired,
    });
    expect(checkCondition(conditionFromWire({ kind: 'event', category: ' ' }))).toEqual({
      category: journeyMessages.eventRequired,
    });
    expect(Object.keys(checkCondition(conditionFromWire({ kind: 'filter' })))).not.toHaveLength(0);
  });

  it('the exit defaults to leaving on conversion, and keeps its filter', () => {
    expect(exitInput(emptyExit())).toEqual({ on_conversion: true, on_opt_out: false, filter: null });
    expect(exitInput(exitFromWire(null))).toEqual({ on_conversion: true, on_opt_out: false, filter: null });
    const filter = {
      type: 'filter',
      regex: false,
      values: [{ filter: 'user_stored_data.city', comparation: '==', value: ['Recife'] }],
    };
    const e = exitFromWire({ on_conversion: false, on_opt_out: true, filter });
    expect(exitInput(e)).toEqual({ on_conversion: false, on_opt_out: true, filter });
    expect(checkExit(emptyExit())).toEqual({});
  });

  it('describes a condition in one line', () => {
    expect(describeCondition({ kind: 'viewed_page', comparation: 'contain', value: ['/checkout'] })).toBe(
      'Visualizou a página que contém “/checkout”',
    );
    expect(describeCondition({ kind: 'event', category: 'compra' })).toBe('Enviou o evento “compra”');
    expect(describeCondition(undefined)).toBe('Escolha a condição');
  });
});
