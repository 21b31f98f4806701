// The snippet's loader: finds our base URL from its own src, asks for the domain's settings and loads the
// chosen tracker version. Tiny and polite: nothing here may throw into the host page.
export {};

type Queue = ((...args: unknown[]) => void) & { q?: IArguments[] };

(() => {
  try {
    const w = window as unknown as { gero?: Queue; __gero?: { base: string; cfg: unknown } };
    const script = document.currentScript as HTMLScriptElement | null;
    const base = script ? script.src.replace(/\/t\/loader\.js.*$/, '') : '';
    const g = w.gero;
    // A second copy of the snippet must not load the tracker twice.
    if (!g || !base || w.__gero) return;
    let id = '';
    for (const args of g.q || []) if (args[0] === 'init' && args[1]) id = String((args[1] as { id?: string }).id || '');
    if (!id) return;
    fetch(`${base}/t/config/${encodeURIComponent(id)}`)
      .then((r) => (r.ok ? r.json() : null))
      .then((cfg) => {
        if (!cfg?.enabled || !cfg.version) return;
        w.__gero = { base, cfg };
        // The GCD injector only where the domain has active GCD items (cfg.dcm, their revision), beside the tracker.
        for (const file of cfg.dcm ? ['gero', 'dcm'] : ['gero']) {
          const s = document.createElement('script');
          s.async = true;
          s.src = `${base}/t/gero/${encodeURIComponent(cfg.version)}/${file}.min.js`;
          document.head.appendChild(s);
        }
      })
      .catch(() => {});
  } catch {}
})();
