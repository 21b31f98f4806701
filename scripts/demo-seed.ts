// The demo's data, seeded the way real data arrives: accounts, channels, media and momentums through the dashboard's
// HTTP API, 30 days of visitors through the collector (as the tag and the service worker send them), pushes through
// a local push service. History lands on past days because the server runs with DEMO_CLOCK=1 and this script moves
// its clock (PUT /api/dev/clock, loopback only, never in production) from slot to slot; each move first stores and
// sends what is due, so every rollup comes out as if those days had really gone by.
import { createRequire } from 'node:module';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import type { PushService } from '../apps/server/test/push-service.ts';

const root = path.resolve(import.meta.dirname, '..');
const serverRequire = createRequire(path.join(root, 'apps/server/package.json'));
// altcha-lib is the server's dependency: loaded from there, typed here by the one call the seed makes.
const { solveChallenge } = serverRequire('altcha-lib') as {
  solveChallenge(options: { challenge: unknown; deriveKey: unknown }): Promise<unknown>;
};
const { deriveKey } = serverRequire('altcha-lib/algorithms/pbkdf2') as { deriveKey: unknown };

export const DEMO_ACCOUNT = {
  company: 'Loja Corre Bem',
  name: 'Demo Ímpeto',
  username: 'demo',
  email: 'demo@impeto.local',
  password: 'demo-impeto-2026',
};

/** Titles the seed creates; the first one found on the domain means the history is already there. */
export const DEMO_TITLES = {
  pageview: 'Frete grátis na página de produto',
  events: 'Carrinho: lembrete do produto',
  abandon: 'Carrinho abandonado há 30 minutos',
  recurrence: 'Ofertas da semana (terças, 10h)',
  paused: 'Aviso do blog de corrida',
  draft: 'Aniversário do cliente (rascunho)',
  scheduled: 'Liquidação de fim de ano (agendada)',
  campaign: 'Campanha Semana do Corredor',
  campaignDone: 'Campanha Dia do Corredor Iniciante',
  campaignScheduled: 'Campanha Black Friday (agendada)',
  campaignDraft: 'Campanha Natal (rascunho)',
  dcm: 'Faixa da Semana do Corredor na vitrine',
} as const;

export interface DemoSite {
  url: string;
  setGeroId(id: string): void;
}

export interface SeedOptions {
  /** The server, e.g. http://127.0.0.1:8080 (started with DEMO_CLOCK=1, TRUSTED_GEO_HEADERS=cloudflare). */
  base: string;
  site: DemoSite;
  /** The local push service the visitors' subscriptions belong to (the server trusts its certificate). */
  push: PushService;
  /** Progress lines (pt-BR). */
  log?: (line: string) => void;
  days?: number;
  seed?: number;
  /** The instant history ends (default: now). */
  now?: Date;
}

export interface SeedResult {
  skipped: boolean;
  companyUuid: string;
  domain: { uuid: string; gero_id: string };
  token: string;
  counts: { sessions: number; pushes: number; onsite: number; conversions: number };
}

// ------------------------------------------------------------------ randomness and calendar

/** mulberry32: a small seeded PRNG, so two runs tell the same story. */
const prng = (seed: number) => {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
};

const TZ = 'America/Sao_Paulo';
const DAY_MS = 86_400_000;
const dayIn = (at: Date) => new Intl.DateTimeFormat('en-CA', { timeZone: TZ }).format(at);
/** São Paulo has no daylight saving time since 2019: UTC-3. */
const atSaoPaulo = (day: string, hh: number, mm = 0) =>
  new Date(`${day}T${String(hh).padStart(2, '0')}:${String(mm).padStart(2, '0')}:00.000-03:00`);
const shiftDay = (day: string, n: number) =>
  new Date(Date.parse(`${day}T12:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);

// ------------------------------------------------------------------ visitors

const USER_AGENTS: { ua: string; weight: number }[] = [
  {
    ua: 'Mozilla/5.0 (Linux; Android 14; SM-A546E) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.6778.104 Mobile Safari/537.36',
    weight: 26,
  },
  {
    ua: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.6 Mobile/15E148 Safari/604.1',
    weight: 18,
  },
  {
    ua: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
    weight: 22,
  },
  {
    ua: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
    weight: 7,
  },
  {
    ua: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.2903.86',
    weight: 7,
  },
  { ua: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0', weight: 5 },
  {
    ua: 'Mozilla/5.0 (Linux; Android 13; SAMSUNG SM-G991B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/25.0 Chrome/121.0.0.0 Mobile Safari/537.36',
    weight: 6,
  },
  {
    ua: 'Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
    weight: 3,
  },
  {
    ua: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
    weight: 3,
  },
  {
    ua: 'Mozilla/5.0 (Linux; Android 14; moto g84 5G) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.6778.81 Mobile Safari/537.36',
    weight: 8,
  },
];

/** Where visitors are, as a CDN's geo headers say it (the demo server trusts Cloudflare's: TRUSTED_GEO_HEADERS). */
const PLACES: { country: string; region: string; city: string; weight: number }[] = [
  { country: 'BR', region: 'São Paulo', city: 'São Paulo', weight: 26 },
  { country: 'BR', region: 'São Paulo', city: 'Campinas', weight: 6 },
  { country: 'BR', region: 'Rio de Janeiro', city: 'Rio de Janeiro', weight: 14 },
  { country: 'BR', region: 'Minas Gerais', city: 'Belo Horizonte', weight: 9 },
  { country: 'BR', region: 'Paraná', city: 'Curitiba', weight: 7 },
  { country: 'BR', region: 'Rio Grande do Sul', city: 'Porto Alegre', weight: 6 },
  { country: 'BR', region: 'Bahia', city: 'Salvador', weight: 5 },
  { country: 'BR', region: 'Pernambuco', city: 'Recife', weight: 4 },
  { country: 'BR', region: 'Distrito Federal', city: 'Brasília', weight: 5 },
  { country: 'BR', region: 'Ceará', city: 'Fortaleza', weight: 4 },
  { country: 'BR', region: 'Santa Catarina', city: 'Florianópolis', weight: 4 },
  { country: 'PT', region: 'Lisboa', city: 'Lisboa', weight: 2 },
  { country: 'US', region: 'Florida', city: 'Miami', weight: 1 },
  { country: 'AR', region: 'Buenos Aires', city: 'Buenos Aires', weight: 1 },
];

const REFERRERS = [
  { r: 'https://www.google.com/', weight: 40 },
  { r: 'https://www.instagram.com/', weight: 18 },
  { r: 'https://l.facebook.com/', weight: 10 },
  { r: 'https://www.youtube.com/', weight: 4 },
  { r: '', weight: 28 },
];

const PRODUCTS = [
  { slug: 'tenis-corrida', name: 'Tênis de corrida Ímpeto Run', categoria: 'Calçados', price: 349.9, weight: 5 },
  { slug: 'camiseta-dry', name: 'Camiseta Dry Fit', categoria: 'Roupas', price: 79.9, weight: 3 },
  { slug: 'garrafa-termica', name: 'Garrafa térmica 750 ml', categoria: 'Acessórios', price: 119, weight: 2 },
];
const SEARCHES = ['tênis corrida', 'camiseta', 'garrafa', 'meia de compressão', 'tênis trilha', 'boné'];
const FIRST_NAMES = ['Ana', 'Bruno', 'Carla', 'Diego', 'Elisa', 'Felipe', 'Gabriela', 'Henrique', 'Isabela', 'João'];
const LAST_NAMES = ['Silva', 'Souza', 'Oliveira', 'Santos', 'Pereira', 'Lima', 'Costa', 'Almeida', 'Ribeiro'];

const pick = <T extends { weight: number }>(rand: () => number, list: T[]) => {
  let x = rand() * list.reduce((n, i) => n + i.weight, 0);
  for (const item of list) {
    x -= item.weight;
    if (x < 0) return item;
  }
  return list[list.length - 1]!;
};
const any = <T>(rand: () => number, list: readonly T[]) => list[Math.floor(rand() * list.length)]!;

interface Visitor {
  vid: string;
  ua: string;
  place: (typeof PLACES)[number];
  language: string;
  endpoint?: string;
  subscribed: boolean;
  identified: boolean;
  /** When the visitor last clicked a message (a later purchase is credited to it). */
  clickedAt?: number;
}

// ------------------------------------------------------------------ images

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (bytes: Buffer) => {
  let c = 0xffffffff;
  for (const b of bytes) c = crcTable[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};
const pngChunk = (type: string, data: Buffer) => {
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const head = Buffer.alloc(4);
  head.writeUInt32BE(data.length);
  const tail = Buffer.alloc(4);
  tail.writeUInt32BE(crc32(body));
  return Buffer.concat([head, body, tail]);
};
/** A diagonal two-colour gradient PNG (banners and icons for the gallery and the messages). */
function gradientPng(width: number, height: number, from: number[], to: number[]) {
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y++) {
    const row = Buffer.alloc(1 + width * 3);
    for (let x = 0; x < width; x++) {
      const k = (x / width + y / height) / 2;
      for (let c = 0; c < 3; c++) row[1 + x * 3 + c] = Math.round(from[c]! + (to[c]! - from[c]!) * k);
    }
    rows.push(row);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = 2;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', deflateSync(Buffer.concat(rows))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

// ------------------------------------------------------------------ the seed

export async function seedDemo(options: SeedOptions): Promise<SeedResult> {
  const { base, site, push } = options;
  const log = options.log ?? ((line: string) => console.log(line));
  const days = options.days ?? 30;
  const rand = prng(options.seed ?? 2026);
  let token = '';

  const api = async <T = unknown>(method: string, url: string, body?: unknown, expectOk = true) => {
    const res = await fetch(`${base}/api${url}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        'accept-language': 'pt_BR',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await res.json().catch(() => ({}))) as { message?: string; data: T };
    if (expectOk && res.status !== 200)
      throw new Error(`${method} /api${url} respondeu ${res.status}: ${json.message ?? ''}`);
    return { status: res.status, body: json };
  };

  const moveClock = (at: Date | null) => api('PUT', '/dev/clock', { clock: { at: at?.toISOString() ?? null } });

  // A clock left moved by an interrupted run goes back first; a server without DEMO_CLOCK=1 says so here.
  const clock = await api('PUT', '/dev/clock', { clock: { at: null } }, false);
  if (clock.status !== 200) {
    throw new Error('o servidor não tem o relógio de demonstração (inicie-o com DEMO_CLOCK=1, fora de produção)');
  }

  // ---------------------------------------------------------------- account and domain
  log('• Conta de demonstração');
  const signIn = async () => {
    const challenge = await (await fetch(`${base}/api/captcha`)).json();
    const solution = await solveChallenge({ challenge, deriveKey });
    return api<{ token: string; company_uuid: string }>(
      'POST',
      '/users/signin',
      {
        user: { username: DEMO_ACCOUNT.username, password: DEMO_ACCOUNT.password },
        captcha: Buffer.from(JSON.stringify({ challenge, solution })).toString('base64'),
      },
      false,
    );
  };
  // A second run finds the user already there.
  let signin = await signIn();
  if (signin.status !== 200) {
    const company = await api<{ company: { uuid: string } }>('POST', '/company/create', {
      company: { name: DEMO_ACCOUNT.company },
    });
    await api('POST', '/users/signup', {
      user: {
        company_uuid: company.body.data.company.uuid,
        ...DEMO_ACCOUNT,
        password_confirmation: DEMO_ACCOUNT.password,
      },
    });
    const outbox = await api<{ to: string; links: string[] }[]>('GET', '/dev/outbox');
    const link = outbox.body.data.findLast((m) => m.to === DEMO_ACCOUNT.email)?.links[0];
    if (!link) throw new Error('o e-mail de validação do usuário de demonstração não chegou');
    await api('PUT', '/users/validate', { user: { cid: new URL(link).searchParams.get('cid') } });
    signin = await signIn();
    if (signin.status !== 200) throw new Error(signin.body.message ?? 'login do usuário de demonstração falhou');
  }
  token = signin.body.data.token;
  const companyUuid = signin.body.data.company_uuid;

  type Domain = { uuid: string; gero_id: string; domain_root: string };
  const domains = (await api<Domain[]>('GET', `/domain/list/${companyUuid}`)).body.data;
  let domain = domains.find((d) => d.domain_root === site.url);
  if (!domain) {
    domain = (
      await api<Domain>('POST', '/domain/create', {
        domain: { company_uuid: companyUuid, name: 'Loja Corre Bem (demonstração)', domain: site.url },
      })
    ).body.data;
  }
  site.setGeroId(domain.gero_id);
  const validated = await api('POST', '/gero/validate', { gero: { domain_uuid: domain.uuid } }, false);
  if (validated.status !== 200)
    log(`• Script do site de teste não verificado: ${validated.body.message ?? validated.status}`);
  if (!domains.some((d) => d.domain_root === 'https://blog.correbem.com.br')) {
    // A second site of the company, without data yet: the domain list and the selector show more than one.
    await api(
      'POST',
      '/domain/create',
      { domain: { company_uuid: companyUuid, name: 'Blog Corre Bem', domain: 'https://blog.correbem.com.br' } },
      false,
    );
  }
  const result: SeedResult = {
    skipped: false,
    companyUuid,
    domain: { uuid: domain.uuid, gero_id: domain.gero_id },
    token,
    counts: { sessions: 0, pushes: 0, onsite: 0, conversions: 0 },
  };

  const existing = (await api<{ momentum_title: string }[]>('GET', `/momentum/list/${domain.uuid}?type=momentum`)).body
    .data;
  if (existing.some((m) => m.momentum_title === DEMO_TITLES.pageview)) {
    log('• Os dados de demonstração já estão neste DATA_DIR: nada foi semeado de novo');
    return { ...result, skipped: true };
  }

  // ---------------------------------------------------------------- the story starts `days` days ago
  const now = options.now ?? new Date();
  const today = dayIn(now);
  const firstDay = shiftDay(today, 1 - days);
  await moveClock(atSaoPaulo(shiftDay(firstDay, -1), 9));
  // Whatever happens from here, the server gets its real clock back.
  const history = async () => {
    log('• Canais: notificação push e mensagem no site');
    for (const channel_type of ['CELL_NOTIFICATION', 'SUPERARE_WEBVIEW']) {
      await api(
        'POST',
        '/channel/create',
        { channel: { domain_uuid: domain.uuid, channel_type, properties: {} } },
        false,
      );
    }

    log('• Galeria de mídia');
    const images = [
      { name: 'banner-semana-do-corredor.png', png: gradientPng(720, 360, [11, 95, 255], [18, 38, 63]) },
      { name: 'banner-frete-gratis.png', png: gradientPng(720, 360, [11, 122, 75], [190, 242, 100]) },
      { name: 'icone-corre-bem.png', png: gradientPng(192, 192, [255, 120, 40], [220, 38, 38]) },
      { name: 'banner-liquidacao.png', png: gradientPng(720, 360, [124, 58, 237], [236, 72, 153]) },
    ];
    const uploaded = (
      await api<{ image: string }[]>('POST', `/gallery/upload/${domain.uuid}/domain`, {
        images: images.map((i) => ({ name: i.name, data: `data:image/png;base64,${i.png.toString('base64')}` })),
      })
    ).body.data.map((i) => i.image);
    const [bannerCampaign, bannerFrete, icon, bannerSale] = uploaded as [string, string, string, string];

    await api('PUT', `/analytics/${domain.uuid}/settings`, { settings: { cart_url: '/carrinho' } });

    log('• Momentums e campanhas');
    const everyone = { type: 'filter', values: [{ filter: 'all' }] };
    const pushBlock = (name: string, title: string, message: string, image: string, redirect: string) => ({
      type: 'dispatcher',
      values: [
        {
          filter: 'CELL_NOTIFICATION',
          name,
          title,
          message,
          icon_uri: icon,
          image,
          redirect_uri: `${site.url}${redirect}`,
          intervalRecurrency: [],
        },
      ],
    });
    const onsiteBlock = (webview_type: string, props: Record<string, string>) => ({
      type: 'dispatcher',
      values: [{ filter: 'SUPERARE_WEBVIEW', webview_type, webview_mode: 'devices_all', webview_props: props }],
    });
    const trigger = (values: Record<string, unknown>) => ({ type: 'trigger', regex: false, values: [values] });
    const create = async (title: string, body: Record<string, unknown>) =>
      (
        await api<{ uuid: string }>('POST', '/momentum/create', {
          domain_uuid: domain!.uuid,
          type: 'momentum',
          status: 'Active',
          momentum_title: title,
          ...body,
        })
      ).body.data.uuid;

    const momentums = {
      pageview: await create(DEMO_TITLES.pageview, {
        momentum_description: 'Mostra o frete grátis a quem abre a página de um produto.',
        momentums: [
          everyone,
          trigger({ filter: 'pageview', comparation: 'contain', value: ['/produto/'], dischargeIn: [] }),
          onsiteBlock('notification_box', {
            notificationTitle: 'Frete grátis hoje',
            notificationContent: 'Compras acima de R$ 199 têm frete grátis para todo o Brasil.',
            notificationButtonText: 'Ver produtos',
            notificationButtonUrl: `${site.url}/produtos`,
          }),
        ],
      }),
      events: await create(DEMO_TITLES.events, {
        momentum_description: 'Quem põe um produto no carrinho recebe um lembrete por push.',
        momentums: [
          everyone,
          trigger({ filter: 'events', parentCategory: 'adicionar_ao_carrinho', value: [], dischargeIn: [] }),
          pushBlock(
            'Lembrete do carrinho',
            'Seu produto está separado',
            'Finalize hoje e ganhe 10% de desconto.',
            bannerFrete,
            '/carrinho',
          ),
        ],
      }),
      abandon: await create(DEMO_TITLES.abandon, {
        momentum_description: 'Carrinho visitado sem chegar à página de obrigado em 30 minutos.',
        momentums: [
          everyone,
          trigger({
            filter: 'abandon',
            comparation: 'contain',
            comparation2: 'contain',
            value: ['/carrinho'],
            value2: ['/obrigado'],
            dischargeIn: [1800],
          }),
          pushBlock(
            'Carrinho abandonado',
            'Esqueceu algo no carrinho?',
            'Seus itens ainda estão lá. Conclua a compra.',
            bannerFrete,
            '/carrinho',
          ),
        ],
      }),
      recurrence: await create(DEMO_TITLES.recurrence, {
        momentum_description: 'Toda terça às 10h, as ofertas da semana para quem aceitou notificações.',
        momentums: [
          everyone,
          trigger({ filter: 'recurrence', comparation: 'weekly', value: ['tuesday'], hours: '10:00', dischargeIn: [] }),
          pushBlock(
            'Ofertas da semana',
            'Ofertas da semana',
            'Até 30% off em tênis e acessórios de corrida.',
            bannerSale,
            '/produtos',
          ),
        ],
      }),
      paused: await create(DEMO_TITLES.paused, {
        momentum_description: 'Alerta para quem lê as dicas de treino (pausado até o próximo post).',
        momentums: [
          everyone,
          trigger({ filter: 'pageview', comparation: 'contain', value: ['/produtos'], dischargeIn: [] }),
          onsiteBlock('topbar', {
            topbarContent: 'Novo no blog: como escolher seu tênis de corrida',
            topbarBtnText: 'Ler agora',
            topbarBtnUrl: `${site.url}/produtos`,
          }),
        ],
      }),
    };
    await create(DEMO_TITLES.draft, {
      status: 'Draft',
      momentum_description: 'Cupom no aniversário de quem se identificou.',
      momentums: [everyone],
    });
    await api('POST', '/momentum/create', {
      domain_uuid: domain.uuid,
      type: 'campaign',
      status: 'Draft',
      momentum_title: DEMO_TITLES.campaignDraft,
      momentums: [everyone],
    });

    // GCD: a banner the tag places at the top of /produtos (the test site shows it while the demo runs).
    const dcmUuid = (
      await api<{ uuid: string }>('POST', '/momentum/create', {
        domain_uuid: domain.uuid,
        type: 'dcm',
        status: 'Active',
        momentum_title: DEMO_TITLES.dcm,
        momentum_description: 'Faixa de desconto acima da lista de produtos.',
        momentums: [
          everyone,
          trigger({ filter: 'pageview', comparation: 'contain', value: ['/produtos'], dischargeIn: [] }),
          {
            type: 'dispatcher',
            values: [
              {
                filter: 'CELL_DCM',
                dispatcher_type: 'custom',
                htmlElement: 'main .wrap',
                tagBehavior: 'afterbegin',
                containHtmlElement: '',
                containText: '',
                customHtml:
                  '<p class="faixa-corredor"><strong>Semana do Corredor:</strong> 20% off em toda a loja até domingo.</p>',
                customCss:
                  '.faixa-corredor{background:#0b5fff;color:#fff;border-radius:12px;padding:12px 16px;margin:0 0 16px}',
                customJs: '',
                timeout: '',
                recurrence: '',
              },
            ],
          },
        ],
      })
    ).body.data.uuid;

    // ---------------------------------------------------------------- history
    const visitors: Visitor[] = [];
    const byEndpoint = new Map<string, Visitor>();
    let visitorSeq = 0;
    const newVisitor = (): Visitor => {
      const v: Visitor = {
        vid: `demo-${(++visitorSeq).toString(36).padStart(4, '0')}-${Math.floor(rand() * 1e8).toString(36)}`,
        ua: pick(rand, USER_AGENTS).ua,
        place: pick(rand, PLACES),
        language: rand() < 0.92 ? 'pt-BR' : any(rand, ['en-US', 'es-AR', 'pt-PT']),
        subscribed: false,
        identified: false,
      };
      visitors.push(v);
      return v;
    };

    const collect = async (visitor: Visitor | undefined, events: object[]) => {
      const res = await fetch(`${base}/collect`, {
        method: 'POST',
        headers: {
          'content-type': 'text/plain;charset=UTF-8',
          origin: site.url,
          'user-agent': visitor?.ua ?? USER_AGENTS[0]!.ua,
          ...(visitor
            ? {
                'cf-ipcountry': visitor.place.country,
                'cf-region': encodeURIComponent(visitor.place.region),
                'cf-ipcity': encodeURIComponent(visitor.place.city),
              }
            : {}),
        },
        body: JSON.stringify({
          id: domain!.gero_id,
          ...(visitor ? { vid: visitor.vid, l: visitor.language } : {}),
          v: '1.3.0',
          e: events,
        }),
      });
      if (res.status !== 202) throw new Error(`o coletor respondeu ${res.status}: ${await res.text()}`);
      return (await res.json()) as { onsite?: { d: string }[] };
    };
    const inParallel = async <T>(items: T[], fn: (item: T) => Promise<void>, limit = 6) => {
      let next = 0;
      await Promise.all(
        Array.from({ length: Math.min(limit, items.length) }, async () => {
          while (next < items.length) await fn(items[next++]!);
        }),
      );
    };

    let pushesSeen = 0;
    /** The service worker's reports: most pushes are shown, some clicked (a click may lead to a purchase). */
    const reportPushes = async (at: Date) => {
      const fresh = push.received.slice(pushesSeen);
      pushesSeen = push.received.length;
      result.counts.pushes += fresh.length;
      const reports: object[] = [];
      for (const r of fresh) {
        const id = (r.payload as { delivery_id?: string }).delivery_id;
        if (!id || rand() > 0.72) continue;
        reports.push({ t: 'viewed', d: id });
        if (rand() < 0.3) {
          reports.push({ t: 'clicked', d: id });
          const visitor = byEndpoint.get(r.endpoint);
          if (visitor) visitor.clickedAt = at.getTime();
        }
      }
      for (let i = 0; i < reports.length; i += 200) await collect(undefined, reports.slice(i, i + 200));
    };

    const url = (p: string) => `${site.url}${p}`;
    const product = () => pick(rand, PRODUCTS);

    /** One visit's first part (browsing); returns the checkout to finish 10 minutes later, if the visitor buys. */
    const browse = async (visitor: Visitor, first: boolean, at: number) => {
      const events: object[] = [];
      const referrer = pick(rand, REFERRERS).r;
      events.push({ t: 'pv', u: url('/'), ...(referrer ? { r: referrer } : {}), ti: 'Loja Corre Bem' });
      if (first && rand() < 0.34) {
        const sub = push.newSubscription();
        visitor.endpoint = sub.subscription.endpoint;
        visitor.subscribed = true;
        byEndpoint.set(sub.subscription.endpoint, visitor);
        events.push({ t: 'optin', s: sub.subscription });
      } else if (!first && visitor.subscribed && rand() < 0.1) {
        visitor.subscribed = false;
        events.push({ t: 'optout' });
      }
      if (rand() < 0.2) events.push({ t: 'ev', c: 'busca', p: { termo: any(rand, SEARCHES) } });
      if (rand() < 0.72) {
        events.push({ t: 'pv', u: url('/produtos'), ti: 'Produtos' });
        // The tag's GCD injector shows the banner there, and reports it.
        events.push({ t: 'dcm', m: dcmUuid, k: 'viewed' });
        if (rand() < 0.08) events.push({ t: 'dcm', m: dcmUuid, k: 'clicked' });
      }
      let item: (typeof PRODUCTS)[number] | undefined;
      if (rand() < 0.62) {
        item = product();
        events.push({ t: 'pv', u: url(`/produto/${item.slug}`), ti: item.name });
        events.push({ t: 'ev', c: 'ver_produto', p: { produto: item.name, categoria: item.categoria } });
      }
      let inCart = false;
      if (item && rand() < 0.38) {
        inCart = true;
        events.push({ t: 'ev', c: 'adicionar_ao_carrinho', p: { produto: item.name, valor: item.price } });
        events.push({ t: 'pv', u: url('/carrinho'), ti: 'Carrinho' });
      }
      if (rand() < 0.05) events.push({ t: 'ev', c: 'newsletter', p: { origem: 'rodape' } });
      if (!visitor.identified && rand() < 0.06) {
        visitor.identified = true;
        const name = `${any(rand, FIRST_NAMES)} ${any(rand, LAST_NAMES)}`;
        const email = `${name
          .toLowerCase()
          .normalize('NFD')
          .replace(/[^a-z ]/g, '')
          .replace(' ', '.')}${visitorSeq}@exemplo.com.br`;
        events.push({ t: 'id', p: { name, email } });
      }
      await collect(visitor, events);
      result.counts.sessions++;
      const clickedRecently = visitor.clickedAt !== undefined && at - visitor.clickedAt < 7 * DAY_MS;
      const buys = inCart && rand() < (clickedRecently ? 0.7 : 0.3);
      return buys ? { visitor, item: item! } : undefined;
    };

    let orders = 0;
    const checkout = async ({ visitor, item }: { visitor: Visitor; item: (typeof PRODUCTS)[number] }) => {
      const quantity = rand() < 0.2 ? 2 : 1;
      const value = Math.round(item.price * quantity * 100) / 100;
      await collect(visitor, [
        { t: 'pv', u: url('/checkout'), ti: 'Pagamento' },
        { t: 'pv', u: url('/obrigado'), ti: 'Pedido confirmado' },
        { t: 'cv', v: value, o: `PED-${String(++orders).padStart(5, '0')}` },
        { t: 'ev', c: 'compra', p: { produto: item.name, valor: value } },
      ]);
      result.counts.conversions++;
    };

    /** On-site messages the tag takes on its poll: most shown, some clicked. */
    const reportOnsite = async (active: Visitor[], at: number) => {
      await inParallel(active, async (visitor) => {
        const res = await fetch(
          `${base}/collect/pending?id=${domain!.gero_id}&vid=${encodeURIComponent(visitor.vid)}`,
          {
            headers: { origin: site.url, 'user-agent': visitor.ua },
          },
        );
        const { onsite } = (await res.json()) as { onsite: { d: string }[] };
        const reports: object[] = [];
        for (const m of onsite) {
          result.counts.onsite++;
          if (rand() > 0.85) continue;
          reports.push({ t: 'viewed', d: m.d });
          if (rand() < 0.32) {
            reports.push({ t: 'clicked', d: m.d });
            visitor.clickedAt = at;
          }
        }
        if (reports.length) await collect(visitor, reports);
      });
    };

    // Four moments a day (each one two clock moves): enough for daily curves, few enough to seed in seconds.
    const SLOTS = [
      { hh: 9, weight: 0.2 },
      { hh: 13, weight: 0.28 },
      { hh: 18, weight: 0.27 },
      { hh: 21, weight: 0.25 },
    ];
    const started = Date.now();
    for (let d = 0; d < days; d++) {
      const day = shiftDay(firstDay, d);
      const weekday = new Date(`${day}T12:00:00Z`).getUTCDay();
      // A shop that grows a little over the month, busier early in the week, quieter on Saturdays.
      const sessionsToday = Math.round(
        (26 + d * 0.5) * [0.85, 1.15, 1.1, 1.05, 1.0, 0.95, 0.75][weekday]! * (0.85 + rand() * 0.3),
      );
      if (day === shiftDay(firstDay, 12)) {
        // The campaign goes out mid-month, to everyone who accepted notifications by then.
        await moveClock(atSaoPaulo(day, 8, 30));
        await api('POST', '/momentum/create', {
          domain_uuid: domain.uuid,
          type: 'campaign',
          status: 'Active',
          momentum_title: DEMO_TITLES.campaign,
          momentum_description: 'Semana do Corredor: 20% off em toda a loja.',
          momentums: [
            everyone,
            pushBlock(
              'Semana do Corredor',
              'Semana do Corredor',
              'Hoje: 20% off em toda a loja, só até domingo.',
              bannerCampaign,
              '/produtos',
            ),
          ],
        });
      }
      if (day === shiftDay(firstDay, 3)) {
        // An early campaign with an end date: it goes out, then the finish job makes it Concluído two days later.
        await moveClock(atSaoPaulo(day, 8, 40));
        await api('POST', '/momentum/create', {
          domain_uuid: domain.uuid,
          type: 'campaign',
          status: 'Active',
          momentum_title: DEMO_TITLES.campaignDone,
          momentum_description: 'Guia grátis de treino para quem está começando.',
          momentums: [
            everyone,
            pushBlock(
              'Corredor iniciante',
              'Comece a correr hoje',
              'Baixe o guia grátis de 5 km.',
              bannerFrete,
              '/produtos',
            ),
            {
              type: 'finish',
              values: [
                { type: 'finish', filter: 'stop_momentum', value: atSaoPaulo(shiftDay(day, 2), 23).toISOString() },
              ],
            },
          ],
        });
      }
      if (day === shiftDay(firstDay, 19)) {
        await moveClock(atSaoPaulo(day, 8, 45));
        await api('PUT', `/momentum/status/${momentums.paused}`, { status: 'Paused' });
      }
      for (const slot of SLOTS) {
        const at = atSaoPaulo(day, slot.hh, Math.floor(rand() * 5) * 10);
        const later = new Date(at.getTime() + 10 * 60_000);
        if (later.getTime() > now.getTime() - 60_000) break;
        await moveClock(at);
        const count = Math.max(1, Math.round(sessionsToday * slot.weight));
        const sessions: { visitor: Visitor; first: boolean }[] = [];
        for (let i = 0; i < count; i++) {
          const returning = visitors.length > 20 && rand() < 0.38;
          sessions.push(
            returning ? { visitor: any(rand, visitors), first: false } : { visitor: newVisitor(), first: true },
          );
        }
        const unique = [...new Map(sessions.map((s) => [s.visitor.vid, s])).values()];
        const buyers: { visitor: Visitor; item: (typeof PRODUCTS)[number] }[] = [];
        await inParallel(unique, async (s) => {
          const buy = await browse(s.visitor, s.first, at.getTime());
          if (buy) buyers.push(buy);
        });
        // Ten minutes on: messages are shown and clicked, and some carts become orders.
        await moveClock(later);
        await reportPushes(later);
        await reportOnsite(
          unique.map((s) => s.visitor),
          later.getTime(),
        );
        await inParallel(buyers, checkout);
      }
      if (d % 5 === 4 || d === days - 1)
        log(
          `  ${d + 1}/${days} dias de histórico (${result.counts.sessions} visitas, ${Math.round((Date.now() - started) / 1000)} s)`,
        );
    }
    return { everyone, trigger, pushBlock, create, browse, newVisitor, reportPushes, bannerSale };
  };
  let seeded: Awaited<ReturnType<typeof history>>;
  try {
    seeded = await history();
  } finally {
    await moveClock(null).catch(() => {});
  }
  const { everyone, trigger, pushBlock, create, browse, newVisitor, reportPushes, bannerSale } = seeded;
  await reportPushes(new Date());

  // ---------------------------------------------------------------- today, live
  await create(DEMO_TITLES.scheduled, {
    status: 'Paused',
    scheduled_at: atSaoPaulo(shiftDay(today, 5), 9).toISOString(),
    momentum_description: 'Começa sozinha na data agendada.',
    momentums: [
      everyone,
      trigger({ filter: 'pageview', comparation: 'contain', value: ['/produtos'], dischargeIn: [] }),
      pushBlock('Liquidação', 'Liquidação de fim de ano', 'Até 50% off em toda a loja.', bannerSale, '/produtos'),
    ],
  });
  await api('POST', '/momentum/create', {
    domain_uuid: domain.uuid,
    type: 'campaign',
    status: 'Paused',
    scheduled_at: atSaoPaulo(shiftDay(today, 3), 10).toISOString(),
    momentum_title: DEMO_TITLES.campaignScheduled,
    momentum_description: 'Sai sozinha na data agendada.',
    momentums: [
      everyone,
      pushBlock('Black Friday', 'Black Friday Corre Bem', 'Até 60% off só hoje.', bannerSale, '/produtos'),
    ],
  });
  // A few visitors browsing right now, so "Visitantes agora" is not empty.
  for (let i = 0; i < 3; i++) await browse(newVisitor(), false, Date.now());
  log(
    `• Histórico pronto: ${result.counts.sessions} visitas, ${result.counts.pushes} pushes, ${result.counts.onsite} mensagens no site, ${result.counts.conversions} pedidos`,
  );
  return result;
}
