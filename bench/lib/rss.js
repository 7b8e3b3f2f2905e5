'use strict';
// Resident memory of a process under bench (Linux /proc; null elsewhere): current RSS, the kernel's peak
// (VmHWM) and a sampler, for "peak RSS while exporting" figures.
const fs = require('node:fs');

/** { rss_kb, hwm_kb } of `pid` from /proc/<pid>/status, or null. */
function memoryOf(pid) {
  try {
    const s = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field) => Number((new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(s) || [])[1]);
    return { rss_kb: kb('VmRSS'), hwm_kb: kb('VmHWM') };
  } catch {
    return null;
  }
}

/**
 * Resets the kernel's peak RSS (VmHWM) of `pid` to its current RSS (`echo 5 > /proc/<pid>/clear_refs`,
 * Linux >= 4.0, allowed for our own children). True when it worked: VmHWM then is the exact peak since now.
 */
function resetPeak(pid) {
  try {
    fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

/**
 * Samples the RSS of `pid` every `intervalMs` from now on. `stop()` returns { before_kb, peak_sampled_kb,
 * peak_kb, samples, hwm_reset } where `peak_kb` is the kernel's VmHWM when it could be reset first (it catches
 * spikes between samples), else the sampled peak.
 */
function startRssSampler(pid, intervalMs = 50) {
  const before = memoryOf(pid);
  const hwmReset = resetPeak(pid);
  let peak = before ? before.rss_kb : 0;
  let samples = 0;
  const timer = setInterval(() => {
    const m = memoryOf(pid);
    if (!m) return;
    samples++;
    if (m.rss_kb > peak) peak = m.rss_kb;
  }, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      const after = memoryOf(pid);
      if (after && after.rss_kb > peak) peak = after.rss_kb;
      return {
        before_kb: before ? before.rss_kb : null,
        after_kb: after ? after.rss_kb : null,
        peak_sampled_kb: peak,
        peak_kb: hwmReset && after ? Math.max(after.hwm_kb, peak) : peak,
        samples,
        hwm_reset: hwmReset,
      };
    },
  };
}

module.exports = { memoryOf, resetPeak, startRssSampler };
