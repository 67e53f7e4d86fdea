//! Thin entry point: the command line decides between the window, `sim` and `bench`; in the
//! browser the page's address gives the window's settings.

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    std::process::exit(steering_arena::cli::main());
}

// The page's loader keeps running the frames after `main` returns (there is no process to end).
#[cfg(target_arch = "wasm32")]
fn main() {
    steering_arena::app::page::start();
}
