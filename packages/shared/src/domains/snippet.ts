/** The tag customers paste into their pages (DESIGN.md §5, 'The tag's public contract'). */
export const trackingSnippet = (o: {
  publicUrl: string;
  root: string;
  geroId: string;
  consentRequired?: boolean;
  /** The web push opt-in model; the script modal adds it once the domain's push channel is integrated. */
  optin?: 'default' | 'topbox';
}) =>
  `<!-- Ímpeto -->
<script>
(function(w,d,s,u){w.gero=w.gero||function(){(w.gero.q=w.gero.q||[]).push(arguments)};var t=d.createElement(s);t.async=1;t.src=u;var f=d.getElementsByTagName(s)[0];f.parentNode.insertBefore(t,f)})(window,document,'script','${o.publicUrl}/t/loader.js');
gero('init', { root: '${o.root}', id: '${o.geroId}'${o.consentRequired ? ", consent: 'required'" : ''} });${o.optin ? `\ngero('optin', '${o.optin}');` : ''}
</script>`;

/** The one line of the site's /cn_sw.min.js: it imports our hosted service worker for this domain. */
export const serviceWorkerFile = (o: { publicUrl: string; geroId: string }) =>
  `importScripts('${o.publicUrl}/t/sw.js?id=${o.geroId}');`;

export const SERVICE_WORKER_FILE = 'cn_sw.min.js';

/** What the site calls once the visitor accepts (its cookie banner or consent platform), on every page (DESIGN.md §11). */
export const CONSENT_GRANT_CALL = "gero('consent', true);";
/** Withdrawal: sending stops and the events still queued in the page are dropped. */
export const CONSENT_DENY_CALL = "gero('consent', false);";
