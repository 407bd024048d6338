fn main() -> std::process::ExitCode {
    drumhead::cli::main()
}

// Batch resolution allocates many small strings; mimalloc serves them
// markedly faster than the system allocator (see bench/run.sh). It is
// built with a C compiler, so only where one is at hand: on Unix.
#[cfg(unix)]
#[global_allocator]
static GLOBAL: allocator::Mimalloc = allocator::Mimalloc;

#[cfg(unix)]
mod allocator {
    use std::alloc::{GlobalAlloc, Layout};
    use std::ffi::c_void;

    /// mimalloc as the global allocator. Its plain entry points are used
    /// whenever the block's natural alignment is enough: the aligned ones take
    /// a slower path on every call, and a batch line makes some sixty
    /// allocations.
    pub(super) struct Mimalloc;

    /// The alignment every block of mimalloc's plain `mi_malloc` has: a
    /// machine word (its smallest size class is one word, and classes step by
    /// words).
    const WORD: usize = std::mem::size_of::<usize>();

    // SAFETY: each function forwards to mimalloc, which returns blocks of at
    // least the requested size, aligned to a word by `mi_malloc`/`mi_realloc`
    // (used only when the layout asks no more) and to the requested alignment
    // by the `_aligned` entry points; `mi_free` frees either kind. A zeroed
    // block is the default's: one allocated here, then cleared.
    unsafe impl GlobalAlloc for Mimalloc {
        unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
            // SAFETY: see the impl.
            by_alignment(
                layout.size(),
                layout.align(),
                |size| unsafe { libmimalloc_sys::mi_malloc(size) },
                |size, align| unsafe { libmimalloc_sys::mi_malloc_aligned(size, align) },
            )
        }

        unsafe fn dealloc(&self, ptr: *mut u8, _layout: Layout) {
            // SAFETY: see the impl; `ptr` came from this allocator.
            unsafe { libmimalloc_sys::mi_free(ptr.cast::<c_void>()) }
        }

        unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
            let ptr = ptr.cast::<c_void>();
            // SAFETY: see the impl; `ptr` came from this allocator with `layout`.
            by_alignment(
                new_size,
                layout.align(),
                |size| unsafe { libmimalloc_sys::mi_realloc(ptr, size) },
                |size, align| unsafe { libmimalloc_sys::mi_realloc_aligned(ptr, size, align) },
            )
        }
    }

    /// The plain entry point when a word's alignment is enough, else the
    /// aligned one.
    fn by_alignment(
        size: usize,
        align: usize,
        plain: impl FnOnce(usize) -> *mut c_void,
        aligned: impl FnOnce(usize, usize) -> *mut c_void,
    ) -> *mut u8 {
        if align <= WORD {
            plain(size).cast()
        } else {
            aligned(size, align).cast()
        }
    }
}
