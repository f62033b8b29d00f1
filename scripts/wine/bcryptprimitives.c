/* ProcessPrng for wine: current Rust's Windows binaries import it from
 * bcryptprimitives.dll, which Debian's wine lacks (every exe then exits 53).
 * This stand-in fills the buffer with RtlGenRandom (SystemFunction036).
 * Built by scripts/wine/setup for the Windows stage of .ci/run; never
 * shipped. */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length)
{
    while (length > 0) {
        ULONG chunk = length > 0x10000000 ? 0x10000000 : (ULONG)length;
        if (!SystemFunction036(data, chunk))
            return FALSE;
        data += chunk;
        length -= chunk;
    }
    return TRUE;
}
