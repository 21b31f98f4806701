import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SERVICE_WORKER_FILE, serviceWorkerFile, trackingSnippet } from '@impeto/shared';

/**
 * A small shop on 127.0.0.1 standing in for a customer's website: the pages a visitor walks through, with the
 * Ímpeto tag in <head> and /cn_sw.min.js at the root when they are "installed". Plain node:http, nothing else.
 */
export interface TestSiteOptions {
  /** The Ímpeto server's public URL, as GET /api/config answers it (the tag's loader and worker live there). */
  publicUrl: string;
  /** The domain's gero_id; while unset the site carries neither the snippet nor the service worker. */
  geroId?: string;
  withSnippet?: boolean;
  withServiceWorker?: boolean;
  /** 0 picks a free port. */
  port?: number;
}

export interface TestSite {
  /** http://127.0.0.1:<port>, no trailing slash: the domain root Ímpeto computes for it. */
  url: string;
  setGeroId(id: string): void;
  setSnippet(on: boolean): void;
  setServiceWorker(on: boolean): void;
  /**
   * What a site owner pasted, served as is: `head` goes into every page's <head> instead of the generated
   * snippet, `worker` is the whole /cn_sw.min.js. null goes back to the generated ones.
   */
  install(pasted: { head?: string | null; worker?: string | null }): void;
  close(): Promise<void>;
}

interface Product {
  slug: string;
  name: string;
  price: string;
  blurb: string;
}

const PRODUCTS: Product[] = [
  {
    slug: 'tenis-corrida',
    name: 'Tênis de corrida Ímpeto Run',
    price: 'R$ 349,90',
    blurb: 'Amortecimento macio para treinos longos e cabedal respirável.',
  },
  {
    slug: 'camiseta-dry',
    name: 'Camiseta Dry Fit',
    price: 'R$ 79,90',
    blurb: 'Tecido leve que seca rápido, ideal para os dias quentes.',
  },
  { slug: 'garrafa-termica', name: 'Garrafa térmica 750 ml', price: 'R$ 119,00', blurb: 'Gelada por 24 horas.' },
];

const CSS = `
*{box-sizing:border-box}body{margin:0;font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:#1d2330;background:#f6f7fb}
header{background:#12263f;color:#fff}header .wrap{display:flex;align-items:center;justify-content:space-between;gap:16px}
.brand{font-weight:800;font-size:20px;color:#fff;text-decoration:none}nav a{color:#cfe0ff;margin-left:16px;text-decoration:none}
nav a[aria-current=page]{color:#fff;font-weight:700}.wrap{max-width:960px;margin:0 auto;padding:16px}
main .wrap{padding:32px 16px}.grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(220px,1fr));gap:16px}
.card{background:#fff;border:1px solid #e3e7ef;border-radius:12px;padding:16px}.price{font-weight:700;color:#0b7a4b}
.btn{display:inline-block;background:#0b5fff;color:#fff;border:0;border-radius:8px;padding:10px 16px;text-decoration:none;font-weight:600}
footer{color:#6b7385;font-size:13px;text-align:center;padding:24px}`;

const esc = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const NAV = [
  ['/', 'Início'],
  ['/produtos', 'Produtos'],
  ['/carrinho', 'Carrinho'],
] as const;

function layout(path: string, title: string, body: string, head: string) {
  const links = NAV.map(
    ([href, label]) => `<a href="${href}"${href === path ? ' aria-current="page"' : ''}>${label}</a>`,
  ).join('');
  return `<!doctype html>
<html lang="pt-BR">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)} · Loja Corre Bem</title>
<style>${CSS}</style>
${head}
</head>
<body>
<header><div class="wrap"><a class="brand" href="/">Corre Bem</a><nav aria-label="Navegação da loja">${links}</nav></div></header>
<main><div class="wrap">
${body}
</div></main>
<footer>Loja Corre Bem · site de teste do Ímpeto</footer>
</body>
</html>`;
}

const productCard = (p: Product) =>
  `<article class="card"><h3><a href="/produto/${p.slug}">${esc(p.name)}</a></h3><p>${esc(p.blurb)}</p><p class="price">${p.price}</p></article>`;

const tenis = PRODUCTS[0]!;

/** The pages of the shop: title and body by path. */
const PAGES: Record<string, { title: string; body: string }> = {
  '/': {
    title: 'Início',
    body: `<h1>Tudo para a sua corrida</h1><p>Frete grátis nas compras acima de R$ 299.</p>
<p><a class="btn" href="/produtos">Ver produtos</a></p><h2>Destaques</h2><div class="grid">${PRODUCTS.slice(0, 2).map(productCard).join('')}</div>`,
  },
  '/produtos': {
    title: 'Produtos',
    body: `<h1>Produtos</h1><div class="grid">${PRODUCTS.map(productCard).join('')}</div>`,
  },
  [`/produto/${tenis.slug}`]: {
    title: tenis.name,
    body: `<h1>${esc(tenis.name)}</h1><p>${esc(tenis.blurb)}</p><p class="price">${tenis.price}</p>
<form action="/carrinho" method="get"><label>Tamanho <select name="tamanho"><option>39</option><option>40</option><option>41</option><option>42</option></select></label>
<button class="btn" type="submit">Adicionar ao carrinho</button></form>`,
  },
  '/carrinho': {
    title: 'Carrinho',
    body: `<h1>Carrinho</h1><div class="card"><p>1 × ${esc(tenis.name)}</p><p class="price">Total: ${tenis.price}</p></div>
<p><a class="btn" href="/checkout">Finalizar compra</a></p>`,
  },
  '/checkout': {
    title: 'Finalizar compra',
    body: `<h1>Finalizar compra</h1><form action="/obrigado" method="get" class="card">
<p><label>Nome completo <input name="nome" autocomplete="name"></label></p>
<p><label>E-mail <input name="email" type="email" autocomplete="email"></label></p>
<button class="btn" type="submit">Pagar ${tenis.price}</button></form>`,
  },
  '/obrigado': {
    title: 'Pedido confirmado',
    // The shop reports the sale as the tracker README says (a reload repeats the order id: counted once).
    body: `<h1>Obrigado pela compra!</h1><p>Seu pedido foi recebido e você vai receber a confirmação por e-mail.</p>
<p><a href="/produtos">Continuar comprando</a></p>
<script>window.gero && gero('conversion', { value: 349.9, order_id: 'PED-' + (new URLSearchParams(location.search).get('pedido') || '1001') });</script>`,
  },
};

export async function startTestSite(options: TestSiteOptions): Promise<TestSite> {
  const publicUrl = options.publicUrl.replace(/\/+$/, '');
  let geroId = options.geroId ?? '';
  let snippetOn = options.withSnippet ?? true;
  let workerOn = options.withServiceWorker ?? true;
  let pastedHead: string | null = null;
  let pastedWorker: string | null = null;
  let origin = '';

  const server = http.createServer((req, res) => {
    const requestUrl = new URL(req.url ?? '/', 'http://site.invalid');
    const path = requestUrl.pathname;
    // ?consent=required renders the snippet the way a site that asks for cookie consent first would.
    const askConsent = requestUrl.searchParams.get('consent') === 'required';
    const method = req.method ?? 'GET';
    if (method !== 'GET' && method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    const send = (status: number, type: string, body: string) => {
      res.writeHead(status, {
        'content-type': type,
        'content-length': Buffer.byteLength(body),
        'cache-control': 'no-store',
      });
      res.end(method === 'HEAD' ? undefined : body);
    };

    if (path === `/${SERVICE_WORKER_FILE}`) {
      if (pastedWorker !== null) send(200, 'application/javascript; charset=utf-8', pastedWorker);
      else if (workerOn && geroId)
        send(200, 'application/javascript; charset=utf-8', serviceWorkerFile({ publicUrl, geroId }));
      else send(404, 'text/plain; charset=utf-8', 'not found');
      return;
    }
    const page = PAGES[path.length > 1 ? path.replace(/\/+$/, '') : path];
    if (!page) {
      send(
        404,
        'text/html; charset=utf-8',
        layout(path, 'Página não encontrada', '<h1>Página não encontrada</h1>', ''),
      );
      return;
    }
    let head = pastedHead ?? (snippetOn && geroId ? trackingSnippet({ publicUrl, root: origin, geroId }) : '');
    if (askConsent) head = head.replace(`id: '${geroId}' }`, `id: '${geroId}', consent: 'required' }`);
    send(200, 'text/html; charset=utf-8', layout(path, page.title, page.body, head));
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: origin,
    setGeroId: (id) => {
      geroId = id;
    },
    setSnippet: (on) => {
      snippetOn = on;
    },
    setServiceWorker: (on) => {
      workerOn = on;
    },
    install: (pasted) => {
      if (pasted.head !== undefined) pastedHead = pasted.head;
      if (pasted.worker !== undefined) pastedWorker = pasted.worker;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
