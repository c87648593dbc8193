// Records the Cargo profile (`release`, `dist`, `debug`, ...) the crate is built with, so
// `_native.BUILD_PROFILE` and the benchmarks can say which build they measured. The profile is
// the directory three levels above OUT_DIR (target/[triple/]PROFILE/build/sigfast-HASH/out).
fn main() {
    let out = std::env::var("OUT_DIR").unwrap_or_default();
    let profile = std::path::Path::new(&out)
        .ancestors()
        .nth(3)
        .and_then(|p| p.file_name())
        .and_then(|s| s.to_str())
        .unwrap_or("unknown")
        .to_string();
    println!("cargo:rustc-env=SIGFAST_BUILD_PROFILE={profile}");
    println!("cargo:rerun-if-changed=build.rs");
}
