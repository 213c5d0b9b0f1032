//! The `engine` binary: the search over UCI on standard input and output.

fn main() {
    let stdin = std::io::stdin();
    engine::uci::Uci::new(Box::new(std::io::stdout())).run(stdin.lock());
}
