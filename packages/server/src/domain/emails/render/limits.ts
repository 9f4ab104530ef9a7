/** The limits every render runs under (enforced in vm.ts, named in the errors render.ts words). */

/**
 * Memory a render may add to what the loaded runtime holds: ample for a large
 * message, small enough for a server. Enforced as the WebAssembly memory's
 * maximum, so allocation fails (QuickJS throws "out of memory") at the cap.
 * QuickJS's own limit cannot serve: this build lacks malloc_usable_size, so
 * it counts 8 bytes per allocation whatever its size.
 */
export const RENDER_MEMORY_BYTES = 64 * 1024 * 1024;
/**
 * Time a render may take, on the monotonic clock: a typical one takes ~10 ms, one styled with Tailwind ~100 ms.
 * The runtime also holds arktype and the helpers module, whose objects every garbage collection walks, and a
 * busy server's clock runs on while the render waits for a core: 3 s still stops a template gone wrong without
 * cutting off one that is only slow on a loaded machine.
 */
export const RENDER_CPU_MILLIS = 3000;
/**
 * The largest HTML a render may produce. Gmail already clips a message past
 * 102 KB, so this only stops a template gone wrong before its output costs
 * the text conversion, the queue and the SMTP server.
 */
export const MAX_HTML_BYTES = 1024 * 1024;
