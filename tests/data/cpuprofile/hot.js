// Two known hot functions: spin() for about three quarters of the time,
// idle() for a quarter, called from work().
function spin(ms) { const end = Date.now() + ms; let x = 0; while (Date.now() < end) x += Math.sqrt(x + 1); return x; }
function light(ms) { const end = Date.now() + ms; let y = 0; while (Date.now() < end) y += 1; return y; }
function work() { for (let i = 0; i < 20; i++) { spin(15); light(5); } }
work();
