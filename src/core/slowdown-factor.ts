/**
 * The bound of a slowdown factor, shared by the gate's settings (core/gate/gate-config.ts, which
 * exports it to the gate) and `gate.slowdown: auto` (core/calibration/auto-slowdown.ts): a module
 * below both, so calibration does not import the gate that imports it.
 */
export const MAX_SLOWDOWN = 32;
