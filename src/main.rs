//! Thin entry point: the command line decides between the window, `sim` and `bench`.

fn main() {
    std::process::exit(steering_arena::cli::main());
}
