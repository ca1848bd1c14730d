// The server's JSON API and the page's status line: every request goes
// through api(), which turns an error answer into an Error with the
// server's one-line message.
const $ = (id) => document.getElementById(id);

// ---- server ----------------------------------------------------------------

export async function api(method, path, body) {
  const opts = { method, headers: {} };
  if (body !== undefined) {
    opts.headers['Content-Type'] = 'application/json';
    opts.body = JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(path, opts);
  } catch (e) {
    throw new Error(`cannot reach the server (${e.message})`);
  }
  const text = await res.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch { /* not JSON: reported below */ }
  if (!res.ok) {
    // The answer's body stays with the error: a stale move's 409 carries the game as it is.
    const err = new Error((data && (data.refused || data.error)) || `${res.status} ${res.statusText}`);
    err.status = res.status;
    err.data = data;
    throw err;
  }
  if (data === null) throw new Error(`${method} ${path}: the server's answer is not JSON`);
  return data;
}

// ---- status line -----------------------------------------------------------

export function setStatus(text, phase) {
  const s = $('status');
  s.textContent = text;
  s.classList.remove('error');
  if (phase) document.body.dataset.phase = phase;
}

export function showError(err) {
  const s = $('status');
  s.textContent = `Error: ${err && err.message ? err.message : err}`;
  s.classList.add('error');
  document.body.dataset.error = s.textContent;
}
