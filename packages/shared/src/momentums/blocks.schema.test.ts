import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  DATE_OPERATORS,
  dispatcherBlockSchema,
  dispatcherValuesSchema,
  FILTER_KEYS,
  filterBlockSchema,
  finishBlockSchema,
  formatInterval,
  IntervalError,
  intervalSchema,
  filterMessages as m,
  momentumBlocksSchema,
  operatorsFor,
  parseInterval,
  SELECT_OPERATORS,
  TEXT_OPERATORS,
  toFilterDay,
  toPortableRegex,
  triggerBlockSchema,
} from './blocks.schema.ts';

/** The messages a schema refuses the input with. */
const refusal = (schema: z.ZodType, input: unknown) => {
  const result = schema.safeParse(input);
  return result.success ? [] : result.error.issues.map((i) => i.message);
};

const cond = (filter: string, comparation?: string, value?: unknown, extra: object = {}) => ({
  filter,
  comparation,
  value,
  ...extra,
});
const filter = (...values: object[]) => ({ type: 'filter', values });
const trigger = (values: object, regex?: boolean) => ({ type: 'trigger', regex, values: [values] });
const push = {
  filter: 'CELL_NOTIFICATION',
  name: 'Carrinho',
  title: 'Esqueceu algo?',
  message: 'Seu carrinho está esperando.',
  icon_uri: 'https://cdn.loja.com.br/icone.png',
  redirect_uri: 'https://loja.com.br/carrinho',
};
const dispatcher = (values: object) => ({ type: 'dispatcher', values: [values] });
const dcm = {
  filter: 'CELL_DCM',
  htmlElement: '#vitrine > .produto:first-child',
  tagBehavior: 'beforeend',
  customHtml: '<p class="oferta">Frete grátis hoje</p>',
};

describe('intervals', () => {
  it('parse number + unit parts into seconds', () => {
    expect(parseInterval('1D 4h 30m')).toBe(86400 + 4 * 3600 + 30 * 60);
    expect(parseInterval('1A')).toBe(31536000);
    expect(parseInterval('2M')).toBe(2 * 2592000);
    expect(parseInterval(' 45s ')).toBe(45);
    expect(parseInterval('1h30m')).toBe(5400);
    expect(parseInterval('1m 1M')).toBe(60 + 2592000);
  });

  it('refuse anything else with the spec message and hint', () => {
    for (const bad of ['', '1', 'D', '1d', '1 D', '1.5h', '1H', '-1m', '1D, 2h', '1y'])
      expect(() => parseInterval(bad), bad).toThrow(IntervalError);
    try {
      parseInterval('3x');
    } catch (err) {
      expect((err as IntervalError).message).toBe('Não foi possível definir um valor. Reescreva seu intervalo.');
      expect((err as IntervalError).hint).toBe(
        'O numeral deve ser seguido por uma das letras a seguir: A (ano), M (mês), D (dia), h (hora), m (minuto) e s (segundo).',
      );
    }
    expect(refusal(intervalSchema, '3x')).toEqual([m.intervalError]);
    expect(intervalSchema.parse('2h')).toBe(7200);
  });

  it('format seconds greedily from the largest unit, and round-trip', () => {
    expect(formatInterval(102600)).toBe('1D 4h 30m');
    expect(formatInterval(0)).toBe('0s');
    expect(formatInterval(31536000 + 2592000 + 1)).toBe('1A 1M 1s');
    for (const s of [1, 59, 61, 3599, 86399, 90061, 31536000 * 3 + 17])
      expect(parseInterval(formatInterval(s))).toBe(s);
    expect(() => formatInterval(-1)).toThrow(IntervalError);
    expect(() => formatInterval(1.5)).toThrow(IntervalError);
  });
});

describe('filter keys and operators', () => {
  it('list the spec keys with the user_stored_data. prefix, city and region under client.location', () => {
    const keys = FILTER_KEYS.map((k) => k.key);
    expect(keys).toContain('all');
    expect(keys).toContain('user_stored_data.client.location.city');
    expect(keys).toContain('user_stored_data.client.location.region');
    expect(keys.filter((k) => k !== 'all').every((k) => k.startsWith('user_stored_data.'))).toBe(true);
    expect(keys).toContain('user_stored_data.client.location.timezone');
    expect(keys).toHaveLength(18);
    expect(FILTER_KEYS.find((k) => k.key === 'user_stored_data.client.location.region')?.name).toBe('Estado');
  });

  it('give each kind its operators', () => {
    expect(operatorsFor('user_stored_data.visited.url')).toEqual(TEXT_OPERATORS);
    expect(operatorsFor('user_stored_data.navigator.browser')).toEqual(SELECT_OPERATORS);
    expect(operatorsFor('user_stored_data.navigator.mobile')).toEqual(SELECT_OPERATORS);
    expect(operatorsFor('user_stored_data.createdAt')).toEqual(DATE_OPERATORS);
    expect(operatorsFor('all')).toEqual([]);
    expect(operatorsFor('nada')).toEqual([]);
  });

  it('read filter days as the start of the day in UTC', () => {
    expect(toFilterDay('10/03/2024')).toBe('2024-03-10T00:00:00.000Z');
    expect(toFilterDay('10/03/2024 15:45')).toBe('2024-03-10T00:00:00.000Z');
    expect(toFilterDay('2024-03-10T00:00:00.000Z')).toBe('2024-03-10T00:00:00.000Z');
    expect(toFilterDay('2024-03-10')).toBe('2024-03-10T00:00:00.000Z');
    expect(toFilterDay('2024-03-10T02:00:00.000-03:00')).toBe('2024-03-10T00:00:00.000Z');
    expect(toFilterDay('31/02/2024')).toBeNull();
    expect(toFilterDay('2024-02-30')).toBeNull();
    expect(toFilterDay('amanhã')).toBeNull();
  });
});

describe('filterBlockSchema', () => {
  it("accepts 'all' alone, and normalises Sim/Não, dates and values", () => {
    expect(filterBlockSchema.parse(filter({ filter: 'all' }))).toEqual({
      type: 'filter',
      regex: false,
      values: [{ filter: 'all', value: [] }],
    });
    const block = filterBlockSchema.parse({
      type: 'filter',
      regex: 'on',
      values: [
        cond('user_stored_data.navigator.mobile', '==', ['Sim', 'Não']),
        cond('user_stored_data.createdAt', 'between', ['10/03/2024'], { value2: ['12/03/2024'], logical: 'or' }),
      ],
    });
    expect(block.regex).toBe(true);
    expect(block.values[0]).toEqual({
      filter: 'user_stored_data.navigator.mobile',
      comparation: '==',
      value: [true, false],
    });
    expect(block.values[1]).toEqual({
      filter: 'user_stored_data.createdAt',
      comparation: 'between',
      value: ['2024-03-10T00:00:00.000Z'],
      value2: '2024-03-12T00:00:00.000Z',
      logical: 'or',
    });
    expect(
      filterBlockSchema.parse(filter(cond('user_stored_data.navigator.browser', 'contain', ' Chrome , ', {}))).values[0]
        ?.value,
    ).toEqual(['Chrome ,']);
  });

  const cases: [string, unknown, string][] = [
    ['not a block', 'filtro', m.blockInvalid],
    ['wrong type', { type: 'trigger', values: [] }, m.blockInvalid],
    ['no conditions', filter(), m.conditionsRequired],
    ['three conditions', filter({ filter: 'all' }, { filter: 'all' }, { filter: 'all' }), m.tooManyConditions],
    [
      "'all' with another condition",
      filter({ filter: 'all' }, cond('user_stored_data.origin', '==', ['x'], { logical: 'and' })),
      m.allAlone,
    ],
    ['no filter', filter({ comparation: '==' }), m.filterRequired],
    ['unknown filter', filter(cond('navigator.browser', '==', ['Chrome'])), m.filterUnknown],
    ['no comparation', filter(cond('user_stored_data.origin', undefined, ['x'])), m.comparationRequired],
    [
      'exactly on a select filter',
      filter(cond('user_stored_data.client.location.city', 'exactly', ['x'])),
      m.comparationInvalid,
    ],
    ['between on a text filter', filter(cond('user_stored_data.origin', 'between', ['x'])), m.comparationInvalid],
    ['no value', filter(cond('user_stored_data.origin', '==', [])), m.valueRequired],
    ['blank values', filter(cond('user_stored_data.origin', '==', ['  ', ''])), m.valueRequired],
    ['object value', filter(cond('user_stored_data.origin', '==', [{ a: 1 }])), m.valueInvalid],
    ['long value', filter(cond('user_stored_data.origin', '==', ['x'.repeat(501)])), m.valueTooLong],
    ['too many values', filter(cond('user_stored_data.origin', '==', Array(101).fill('x'))), m.tooManyValues],
    [
      'second without logical',
      filter(cond('user_stored_data.origin', '==', ['x']), cond('user_stored_data.origin', '==', ['y'])),
      m.logicalRequired,
    ],
    ['not a boolean', filter(cond('user_stored_data.notified.clicked', '==', ['Talvez'])), m.booleanInvalid],
    ['bad date', filter(cond('user_stored_data.createdAt', '<', ['31/02/2024'])), m.dateInvalid],
    ['two dates', filter(cond('user_stored_data.createdAt', '<', ['01/02/2024', '02/02/2024'])), m.dateSingle],
    ['between without end', filter(cond('user_stored_data.createdAt', 'between', ['01/02/2024'])), m.value2Required],
    [
      'between with a bad end',
      filter(cond('user_stored_data.createdAt', 'between', ['01/02/2024'], { value2: '2024-13-01' })),
      m.dateInvalid,
    ],
    [
      'between backwards',
      filter(cond('user_stored_data.createdAt', 'between', ['05/02/2024'], { value2: '01/02/2024' })),
      m.dateRangeOrder,
    ],
    [
      'regex with an ordering operator',
      { type: 'filter', regex: true, values: [cond('user_stored_data.origin', '<', ['a'])] },
      m.regexNotAllowed,
    ],
    [
      'invalid regex',
      { type: 'filter', regex: true, values: [cond('user_stored_data.origin', '==', ['(abc'])] },
      m.regexInvalid,
    ],
    [
      'long regex',
      { type: 'filter', regex: true, values: [cond('user_stored_data.origin', '==', ['a'.repeat(201)])] },
      m.regexTooLong,
    ],
    [
      'regex backreference',
      { type: 'filter', regex: true, values: [cond('user_stored_data.origin', '==', ['(a)\\1'])] },
      m.regexUnsupported,
    ],
    [
      'catastrophic regex',
      { type: 'filter', regex: true, values: [cond('user_stored_data.origin', '==', ['^(a+)+$'])] },
      m.regexUnsafe,
    ],
  ];
  for (const [name, input, message] of cases)
    it(`refuses ${name}`, () => {
      expect(refusal(filterBlockSchema, input)).toContain(message);
    });
});

describe('toPortableRegex', () => {
  it('rewrites shorthands to ASCII classes', () => {
    expect(toPortableRegex('\\d+\\s\\w')).toEqual({ ok: true, source: '[0-9]+[\\t\\n\\v\\f\\r ][A-Za-z0-9_]' });
    expect(toPortableRegex('[\\d.-]')).toEqual({ ok: true, source: '[0-9.-]' });
    expect(toPortableRegex('^https?://(www\\.)?loja\\.com\\.br/(?:produto|item)/[0-9]{1,6}$').ok).toBe(true);
    expect(toPortableRegex('[^/]+\\.html?$').ok).toBe(true);
  });

  it('refuses what PostgreSQL and JavaScript read differently or that backtracks badly', () => {
    const refused = (p: string) => {
      const r = toPortableRegex(p);
      return r.ok ? 'aceita' : r.message;
    };
    for (const p of [
      '\\bword',
      'a\\1',
      '(?=a)',
      '(?<=a)b',
      '(?<n>a)',
      '[[:alpha:]]',
      '[a-c-e]',
      '\\p{L}',
      'a{256}',
      '\\x41',
      '()',
      'a||b',
      '(|a)',
    ])
      expect([m.regexUnsupported, m.regexInvalid], p).toContain(refused(p));
    for (const p of ['(a+)+', '(a|b)*', '(x*)*y', '((ab)+c)+', 'a*b*c*d*e*', '(\\.[0-9]+)*'])
      expect(refused(p), p).toBe(m.regexUnsafe);
    expect(refused('')).toBe(m.regexInvalid);
  });
});

describe('triggerBlockSchema', () => {
  it('prefixes https:// on ==/!= pageview values and keeps contain values and regexes as typed', () => {
    const block = triggerBlockSchema.parse(
      trigger({ filter: 'pageview', comparation: '==', value: ['loja.com.br/carrinho', 'http://loja.com.br'] }),
    );
    expect(block.values[0]).toEqual({
      filter: 'pageview',
      comparation: '==',
      value: ['https://loja.com.br/carrinho', 'http://loja.com.br'],
      dischargeIn: [],
    });
    expect(
      triggerBlockSchema.parse(trigger({ filter: 'pageview', comparation: 'contain', value: ['carrinho'] })).values[0]
        ?.value,
    ).toEqual(['carrinho']);
    expect(
      triggerBlockSchema.parse(trigger({ filter: 'pageview', comparation: '==', value: ['/produto/\\d+$'] }, true))
        .values[0]?.value,
    ).toEqual(['/produto/\\d+$']);
  });

  it('accepts each recurrence period', () => {
    const rec = (comparation: string, value: unknown, hours = '09:30') =>
      triggerBlockSchema.parse(trigger({ filter: 'recurrence', comparation, value, hours })).values[0];
    expect(rec('monthly', ['2-5'])?.value).toEqual(['02-05']);
    expect(rec('weekly', ['Monday'])?.value).toEqual(['monday']);
    expect(rec('daily', [''])?.value).toEqual([]);
    expect(rec('daily', undefined)?.hours).toBe('09:30');
  });

  it('accepts events and abandon triggers', () => {
    expect(
      triggerBlockSchema.parse(trigger({ filter: 'events', parentCategory: 'compra', dischargeIn: [60] })).values[0],
    ).toEqual({ filter: 'events', parentCategory: 'compra', value: [], dischargeIn: [60] });
    expect(
      triggerBlockSchema.parse(
        trigger({
          filter: 'abandon',
          comparation: 'contain',
          comparation2: 'notcontain',
          value: ['carrinho'],
          value2: ['obrigado'],
        }),
      ).values[0],
    ).toMatchObject({ comparation: 'contain', comparation2: 'notcontain', value: ['carrinho'], value2: ['obrigado'] });
  });

  const cases: [string, unknown, string][] = [
    ['no trigger', { type: 'trigger', values: [] }, m.triggerRequired],
    ['unknown trigger', trigger({ filter: 'scroll' }), m.triggerRequired],
    ['pageview without comparation', trigger({ filter: 'pageview', value: ['x'] }), m.pageviewComparation],
    [
      'pageview with exactly',
      trigger({ filter: 'pageview', comparation: 'exactly', value: ['x'] }),
      m.pageviewComparation,
    ],
    ['pageview without values', trigger({ filter: 'pageview', comparation: 'contain', value: [] }), m.valueRequired],
    ['pageview bad URL', trigger({ filter: 'pageview', comparation: '!=', value: ['não é url'] }), m.urlInvalid],
    [
      'pageview ftp URL',
      trigger({ filter: 'pageview', comparation: '==', value: ['ftp://loja.com.br'] }),
      m.urlInvalid,
    ],
    ['pageview bad regex', trigger({ filter: 'pageview', comparation: '==', value: ['(a'] }, true), m.regexInvalid],
    ['events without category', trigger({ filter: 'events', value: [] }), m.categoryRequired],
    [
      'events values without key',
      trigger({ filter: 'events', parentCategory: 'c', comparation: '==', value: ['v'] }),
      m.eventKeyRequired,
    ],
    [
      'events values without comparation',
      trigger({ filter: 'events', parentCategory: 'c', key: 'k', value: ['v'] }),
      m.eventComparation,
    ],
    [
      'abandon not contain',
      trigger({ filter: 'abandon', comparation: '==', comparation2: 'contain', value: ['a'] }),
      m.abandonComparation,
    ],
    [
      'abandon bad second',
      trigger({ filter: 'abandon', comparation: 'contain', comparation2: '==', value: ['a'] }),
      m.abandonComparation2,
    ],
    ['recurrence without period', trigger({ filter: 'recurrence', hours: '10:00' }), m.recurrenceRequired],
    ['recurrence bad hours', trigger({ filter: 'recurrence', comparation: 'daily', hours: '24:00' }), m.hoursInvalid],
    [
      'monthly bad day',
      trigger({ filter: 'recurrence', comparation: 'monthly', value: ['02-32'], hours: '10:00' }),
      m.monthlyInvalid,
    ],
    [
      'weekly bad day',
      trigger({ filter: 'recurrence', comparation: 'weekly', value: ['segunda'], hours: '10:00' }),
      m.weekdayInvalid,
    ],
    [
      'daily with a value',
      trigger({ filter: 'recurrence', comparation: 'daily', value: ['x'], hours: '10:00' }),
      m.dailyValue,
    ],
    ['negative delay', trigger({ filter: 'events', parentCategory: 'c', dischargeIn: [-1] }), m.dischargeInvalid],
    ['two delays', trigger({ filter: 'events', parentCategory: 'c', dischargeIn: [1, 2] }), m.dischargeSingle],
  ];
  for (const [name, input, message] of cases)
    it(`refuses ${name}`, () => {
      expect(refusal(triggerBlockSchema, input)).toContain(message);
    });
});

describe('dispatcherBlockSchema', () => {
  it('keeps up to two push buttons (notification_buttons) and refuses a third, a blank text or a bad link', () => {
    const buttons = [
      { title: 'Ver oferta', url: 'https://loja.com.br/oferta' },
      { title: 'Depois', url: 'https://loja.com.br/' },
    ];
    expect(dispatcherBlockSchema.parse(dispatcher({ ...push, notification_buttons: buttons })).values[0]).toMatchObject(
      {
        notification_buttons: buttons,
      },
    );
    expect(dispatcherBlockSchema.parse(dispatcher(push)).values[0]).not.toHaveProperty('notification_buttons');
    const third = [...buttons, { title: 'Mais', url: 'https://loja.com.br/mais' }];
    expect(refusal(dispatcherBlockSchema, dispatcher({ ...push, notification_buttons: third }))).toContain(
      'A notificação aceita no máximo 2 botões.',
    );
    expect(
      refusal(
        dispatcherBlockSchema,
        dispatcher({ ...push, notification_buttons: [{ title: ' ', url: buttons[0]!.url }] }),
      ),
    ).toContain('Informe o texto do botão (até 30 caracteres).');
    expect(
      refusal(
        dispatcherBlockSchema,
        dispatcher({ ...push, notification_buttons: [{ title: 'Ver', url: 'javascript:x' }] }),
      ),
    ).toContain('O link do botão deve ser uma URL válida (http ou https).');
  });

  it("accepts a GCD item: numbers as text or number, empty counts left out, other kinds' fields dropped", () => {
    const parsed = dispatcherBlockSchema.parse(
      dispatcher({
        ...dcm,
        containHtmlElement: ' .carrinho ',
        containText: 'Finalizar compra',
        customCss: '.oferta{color:red}',
        customJs: 'console.log(1)',
        timeout: '30',
        recurrence: '',
        title: 'ignorado',
        template: 'alert',
      }),
    ).values[0];
    expect(parsed).toEqual({
      filter: 'CELL_DCM',
      dispatcher_type: 'custom',
      htmlElement: '#vitrine > .produto:first-child',
      tagBehavior: 'beforeend',
      containHtmlElement: '.carrinho',
      containText: 'Finalizar compra',
      customHtml: dcm.customHtml,
      customCss: '.oferta{color:red}',
      customJs: 'console.log(1)',
      timeout: 30,
      intervalRecurrency: [],
    });
    const template = dispatcherBlockSchema.parse(
      dispatcher({
        ...dcm,
        dispatcher_type: 'template',
        template: 'alert',
        title: 'Oferta',
        message: 'Frete grátis acima de R$ 99',
        redirect_uri: 'https://loja.com.br/ofertas',
        recurrence: 2,
        timeout: 0,
      }),
    ).values[0];
    expect(template).toMatchObject({
      template: 'alert',
      message: 'Frete grátis acima de R$ 99',
      recurrence: 2,
      timeout: 0,
    });
    expect(template).not.toHaveProperty('customHtml');
    const optin = dispatcherBlockSchema.parse(dispatcher({ ...dcm, dispatcher_type: 'optin', optin: 'topbox' }));
    expect(optin.values[0]).toMatchObject({ dispatcher_type: 'optin', optin: 'topbox' });
    expect(
      dispatcherBlockSchema.parse(dispatcher({ ...dcm, customHtml: 'a'.repeat(100 * 1024) })).values[0],
    ).toBeTruthy();
  });

  it('a GCD item whose content does not go at the element needs no selector (push, template, opt-in)', () => {
    const without = { ...dcm, htmlElement: '' };
    const notification = {
      dispatcher_type: 'notification',
      title: 'Frete grátis',
      message: 'Hoje, em toda a loja.',
      redirect_uri: 'https://loja.com.br/ofertas',
    };
    expect(dispatcherBlockSchema.parse(dispatcher({ ...without, ...notification })).values[0]).toMatchObject({
      dispatcher_type: 'notification',
      htmlElement: '',
    });
    expect(
      dispatcherBlockSchema.parse(
        dispatcher({ ...without, dispatcher_type: 'template', template: 'alert', message: 'Oi' }),
      ).values[0],
    ).toMatchObject({ htmlElement: '' });
    const { htmlElement: _, ...absent } = dcm;
    expect(
      dispatcherBlockSchema.parse(dispatcher({ ...absent, dispatcher_type: 'optin', optin: 'default' })).values[0],
    ).toMatchObject({ htmlElement: '' });
    expect(refusal(dispatcherBlockSchema, dispatcher(without))).toContain(m.dcmSelectorRequired);
  });

  it('accepts a push notification (icon as icon_uri) and a loose webview', () => {
    const { icon_uri, ...rest } = push;
    const parsed = dispatcherBlockSchema.parse(
      dispatcher({ ...rest, icon: icon_uri, intervalRecurrency: [3600, 86400] }),
    );
    expect(parsed.values[0]).toMatchObject({ icon_uri, intervalRecurrency: [3600, 86400] });
    expect(
      dispatcherBlockSchema.parse(
        dispatcher({
          filter: 'SUPERARE_WEBVIEW',
          webview_type: 'alert_box',
          webview_props: { alertContent: 'Oi' },
          extra: 1,
        }),
      ).values[0],
    ).toMatchObject({ webview_type: 'alert_box', intervalRecurrency: [] });
  });

  const cases: [string, unknown, string][] = [
    ['no channel', dispatcher({}), m.channelRequired],
    ['unknown channel', dispatcher({ filter: 'FAX' }), m.channelRequired],
    ['no values', { type: 'dispatcher', values: [] }, m.channelRequired],
    ['push without name', dispatcher({ ...push, name: ' ' }), m.nameRequired],
    ['push without title', dispatcher({ ...push, title: undefined }), m.titleRequired],
    ['push long title', dispatcher({ ...push, title: 'x'.repeat(50) }), m.titleTooLong],
    ['push without message', dispatcher({ ...push, message: '' }), m.messageRequired],
    ['push long message', dispatcher({ ...push, message: 'x'.repeat(127) }), m.messageTooLong],
    ['push without icon', dispatcher({ ...push, icon_uri: '' }), m.iconRequired],
    ['push bad icon', dispatcher({ ...push, icon_uri: 'icone.png' }), m.iconInvalid],
    ['push bad redirect', dispatcher({ ...push, redirect_uri: 'javascript:alert(1)' }), m.redirectInvalid],
    ['push bad image', dispatcher({ ...push, image: 'imagem' }), m.imageInvalid],
    ['zero interval', dispatcher({ ...push, intervalRecurrency: [0] }), m.intervalsInvalid],
    ['too many intervals', dispatcher({ ...push, intervalRecurrency: Array(51).fill(60) }), m.tooManyIntervals],
    ['sms without body', dispatcher({ filter: 'ZENVIA' }), m.smsBodyRequired],
    ['e-mail without subject', dispatcher({ filter: 'AWS_SES', body: 'b' }), m.emailSubjectRequired],
    ['e-mail without body', dispatcher({ filter: 'AWS_SES', subject: 's' }), m.emailBodyRequired],
    ['akna missing fields', dispatcher({ filter: 'AKNA', action_id: 'a' }), m.aknaFieldRequired],
    ['one signal without title', dispatcher({ filter: 'ONE_SIGNAL', url: 'https://x.com' }), m.oneSignalFieldRequired],
    [
      'one signal without the portuguese message',
      dispatcher({ filter: 'ONE_SIGNAL', title: 't', url: 'https://x.com', message_en: 'Hi' }),
      m.oneSignalPtRequired,
    ],
    [
      'one signal without the english message',
      dispatcher({ filter: 'ONE_SIGNAL', title: 't', url: 'https://x.com', message_pt: 'Oi' }),
      m.oneSignalEnRequired,
    ],
    ['webview without type', dispatcher({ filter: 'SUPERARE_WEBVIEW' }), m.webviewTypeRequired],
    [
      'webview non-text props',
      dispatcher({ filter: 'SUPERARE_WEBVIEW', webview_type: 'topbar', webview_props: { a: 1 } }),
      m.webviewPropsInvalid,
    ],
    ['dcm bad behaviour', dispatcher({ ...dcm, tagBehavior: 'after' }), m.dcmBehaviorInvalid],
    ['dcm without behaviour', dispatcher({ ...dcm, tagBehavior: undefined }), m.dcmBehaviorInvalid],
    ['dcm bad timeout', dispatcher({ ...dcm, timeout: '-5' }), m.dcmNumberInvalid],
    ['dcm fractional timeout', dispatcher({ ...dcm, timeout: '1.5' }), m.dcmNumberInvalid],
    ['dcm text recurrence', dispatcher({ ...dcm, recurrence: 'duas' }), m.dcmNumberInvalid],
    ['dcm negative recurrence', dispatcher({ ...dcm, recurrence: -1 }), m.dcmNumberInvalid],
    ['dcm without selector', dispatcher({ ...dcm, htmlElement: ' ' }), m.dcmSelectorRequired],
    ['dcm selector querySelector refuses', dispatcher({ ...dcm, htmlElement: '#123 >' }), m.dcmSelectorInvalid],
    ['dcm unknown pseudo-class', dispatcher({ ...dcm, htmlElement: 'div:contains(x)' }), m.dcmSelectorInvalid],
    ['dcm bad condition selector', dispatcher({ ...dcm, containHtmlElement: '.1x' }), m.dcmContainSelectorInvalid],
    ['dcm without content', dispatcher({ ...dcm, customHtml: '  ' }), m.dcmContentRequired],
    ['dcm HTML over 100 KB', dispatcher({ ...dcm, customHtml: 'a'.repeat(100 * 1024 + 1) }), m.dcmHtmlTooLarge],
    ['dcm CSS over 50 KB', dispatcher({ ...dcm, customCss: 'é'.repeat(25 * 1024 + 1) }), m.dcmCssTooLarge],
    ['dcm JS over 50 KB', dispatcher({ ...dcm, customJs: ';'.repeat(50 * 1024 + 1) }), m.dcmJsTooLarge],
    ['dcm unknown kind', dispatcher({ ...dcm, dispatcher_type: 'popup' }), m.dcmDispatcherInvalid],
    ['dcm template without kind', dispatcher({ ...dcm, dispatcher_type: 'template' }), m.dcmTemplateRequired],
    [
      'dcm alert without message',
      dispatcher({ ...dcm, dispatcher_type: 'template', template: 'alert' }),
      m.dcmMessageRequired,
    ],
    [
      'dcm image template without image',
      dispatcher({ ...dcm, dispatcher_type: 'template', template: 'image' }),
      m.dcmImageRequired,
    ],
    ['dcm icon opt-in', dispatcher({ ...dcm, dispatcher_type: 'optin', optin: 'icon' }), m.dcmOptinRequired],
  ];
  for (const [name, input, message] of cases)
    it(`refuses ${name}`, () => {
      expect(refusal(dispatcherBlockSchema, input)).toContain(message);
    });
});

describe('dispatcherValuesSchema', () => {
  it("is one channel's content on its own, as a dispatcher block reads it (icon as icon_uri, same refusals)", () => {
    const { icon_uri, ...withoutIcon } = push;
    const parsed = dispatcherValuesSchema.parse({ ...withoutIcon, icon: icon_uri });
    expect(parsed).toMatchObject({ filter: 'CELL_NOTIFICATION', icon_uri, intervalRecurrency: [] });
    expect(dispatcherBlockSchema.parse(dispatcher(push)).values[0]).toEqual(dispatcherValuesSchema.parse(push));
    expect(refusal(dispatcherValuesSchema, { ...push, title: '' })).toEqual([m.titleRequired]);
    expect(refusal(dispatcherValuesSchema, { filter: 'FAX' })).toEqual([m.channelRequired]);
  });
});

describe('finishBlockSchema', () => {
  const finish = (v: object) => ({
    type: 'finish',
    values: [{ type: 'finish', filter: 'stop_momentum', value: '2026-12-31T23:00:00.000Z', ...v }],
  });
  it('accepts an ISO datetime', () => {
    expect(finishBlockSchema.parse(finish({})).values[0]?.value).toBe('2026-12-31T23:00:00.000Z');
  });
  it('refuses a wrong type, filter or date', () => {
    expect(refusal(finishBlockSchema, finish({ type: 'end' }))).toContain(m.finishType);
    expect(refusal(finishBlockSchema, finish({ filter: 'stop' }))).toContain(m.finishFilter);
    expect(refusal(finishBlockSchema, finish({ value: '31/12/2026' }))).toContain(m.finishDateInvalid);
    expect(refusal(finishBlockSchema, { type: 'finish', values: [] })).toContain(m.finishDateInvalid);
  });
});

describe('momentumBlocksSchema', () => {
  const blocks = {
    filter: filter({ filter: 'all' }),
    trigger: trigger({ filter: 'pageview', comparation: 'contain', value: ['carrinho'], dischargeIn: [300] }),
    dispatcher: dispatcher(push),
    finish: {
      type: 'finish',
      values: [{ type: 'finish', filter: 'stop_momentum', value: '2026-12-31T23:00:00.000Z' }],
    },
  };

  it('accepts the blocks in order, any of them left out', () => {
    expect(momentumBlocksSchema.parse([blocks.filter, blocks.trigger, blocks.dispatcher, blocks.finish])).toHaveLength(
      4,
    );
    expect(momentumBlocksSchema.parse([blocks.filter, blocks.dispatcher])).toHaveLength(2);
    expect(momentumBlocksSchema.parse([])).toEqual([]);
  });

  it('refuses a wrong order, a repeated block, an unknown type, and reports a block error at its place', () => {
    expect(refusal(momentumBlocksSchema, [blocks.trigger, blocks.filter])).toEqual([m.blocksOrder]);
    expect(refusal(momentumBlocksSchema, [blocks.filter, blocks.filter])).toEqual([m.blocksOrder]);
    expect(refusal(momentumBlocksSchema, [{ type: 'canal', values: [] }])).toEqual([m.blockTypeInvalid]);
    const result = momentumBlocksSchema.safeParse([blocks.filter, dispatcher({ ...push, title: '' })]);
    expect(result.error?.issues[0]).toMatchObject({ message: m.titleRequired, path: [1, 'values', 0, 'title'] });
  });
});
