import { describe, expect, it } from 'vitest';
import { isBrDate, isBrPhone, isCnpj, onlyDigits } from './company.schema.ts';

describe('company form validators', () => {
  it('CNPJ: 14 digits, masked or bare, not all equal, both check digits', () => {
    expect(isCnpj('11.222.333/0001-81')).toBe(true);
    expect(isCnpj('11222333000181')).toBe(true);
    expect(isCnpj('11.111.111/1111-11')).toBe(false);
    expect(isCnpj('00000000000000')).toBe(false);
    expect(isCnpj('11.222.333/0001-80')).toBe(false);
    expect(isCnpj('11.222.333/0001-91')).toBe(false);
    expect(isCnpj('1122233300018')).toBe(false);
    expect(isCnpj('AB.222.333/0001-81')).toBe(false);
  });

  it('dates: dd/mm/yyyy that exist, leap years included', () => {
    expect(isBrDate('29/02/2024')).toBe(true);
    expect(isBrDate('29/02/2000')).toBe(true);
    expect(isBrDate('29/02/2023')).toBe(false);
    expect(isBrDate('29/02/1900')).toBe(false);
    expect(isBrDate('31/06/2024')).toBe(false);
    expect(isBrDate('2024-02-29')).toBe(false);
  });

  it('phone: only digits kept, 10 or 11 of them', () => {
    expect(onlyDigits('(11) 98765-4321')).toBe('11987654321');
    expect(isBrPhone('1133334444')).toBe(true);
    expect(isBrPhone('11987654321')).toBe(true);
    expect(isBrPhone('113333444')).toBe(false);
    expect(isBrPhone('119876543210')).toBe(false);
  });
});
