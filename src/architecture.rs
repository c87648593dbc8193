//! Tests of the crate's shape, read off its sources: the module graph has no
//! cycle, and every Python-facing function runs inside the one wrapper that
//! catches panics.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Every `.rs` file under `dir`, sorted.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// The code of a file without its comments (`//`, `//!`, `///`): doc links
/// such as [`crate::stream`] are not dependencies.
fn code(text: &str) -> String {
    text.lines()
        .map(|l| match l.find("//") {
            // a `//` inside a string literal ("http://") is rare in this crate's
            // code lines and would only hide a dependency named after it
            Some(i) => &l[..i],
            None => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Top-level module of a source file (`engine/swap.rs` → `engine`); `None`
/// for the crate root.
fn module_of(path: &Path, root: &Path) -> Option<String> {
    let rel = path.strip_prefix(root).unwrap();
    let first = rel.components().next()?.as_os_str().to_str()?.to_string();
    let name = first.trim_end_matches(".rs").to_string();
    (name != "lib").then_some(name)
}

/// Module → the other top-level modules its code names as `crate::name`.
fn module_graph() -> BTreeMap<String, BTreeSet<String>> {
    let root = src();
    let files = rust_files(&root);
    let modules: BTreeSet<String> = files.iter().filter_map(|f| module_of(f, &root)).collect();
    let mut graph: BTreeMap<String, BTreeSet<String>> = modules
        .iter()
        .map(|m| (m.clone(), BTreeSet::new()))
        .collect();
    for f in &files {
        let Some(from) = module_of(f, &root) else {
            continue;
        };
        let text = code(&fs::read_to_string(f).unwrap());
        for (i, _) in text.match_indices("crate::") {
            let rest = &text[i + "crate::".len()..];
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            // `crate::{a, b}` groups
            let names: Vec<String> = if rest.starts_with('{') {
                let inner = &rest[1..rest.find('}').unwrap_or(rest.len())];
                inner
                    .split(',')
                    .map(|s| s.trim().split("::").next().unwrap_or("").trim().to_string())
                    .collect()
            } else {
                vec![name]
            };
            for n in names {
                if modules.contains(&n) && n != from {
                    graph.get_mut(&from).unwrap().insert(n);
                }
            }
        }
    }
    graph
}

/// A cycle of the graph, if it has one.
fn find_cycle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    // 0: unvisited, 1: on the stack, 2: done
    fn visit(
        n: &str,
        g: &BTreeMap<String, BTreeSet<String>>,
        state: &mut BTreeMap<String, u8>,
        path: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        state.insert(n.to_string(), 1);
        path.push(n.to_string());
        for m in &g[n] {
            match state.get(m).copied().unwrap_or(0) {
                1 => {
                    let start = path.iter().position(|p| p == m).unwrap();
                    let mut cycle = path[start..].to_vec();
                    cycle.push(m.clone());
                    return Some(cycle);
                }
                0 => {
                    if let Some(c) = visit(m, g, state, path) {
                        return Some(c);
                    }
                }
                _ => {}
            }
        }
        path.pop();
        state.insert(n.to_string(), 2);
        None
    }
    let mut state = BTreeMap::new();
    for n in graph.keys() {
        if state.get(n).copied().unwrap_or(0) == 0 {
            if let Some(c) = visit(n, graph, &mut state, &mut Vec::new()) {
                return Some(c);
            }
        }
    }
    None
}

#[test]
fn module_graph_has_no_cycle() {
    let g = module_graph();
    // the check sees the dependencies it must
    assert!(g["engine"].contains("metric"), "{g:?}");
    assert!(g["stream"].contains("engine"), "{g:?}");
    assert!(g["meta"].contains("simd"), "{g:?}");
    if let Some(c) = find_cycle(&g) {
        panic!("module cycle: {}", c.join(" -> "));
    }
    // and finds one where there is one
    let mut with_cycle = g.clone();
    with_cycle
        .get_mut("itemstat")
        .unwrap()
        .insert("engine".into());
    assert!(find_cycle(&with_cycle).is_some());
}

#[test]
fn simd_lives_in_one_module() {
    for f in rust_files(&src()) {
        let rel = f.strip_prefix(src()).unwrap().to_string_lossy().to_string();
        if rel == "simd.rs" || rel == "architecture.rs" {
            continue;
        }
        let text = code(&fs::read_to_string(&f).unwrap());
        for needle in ["is_x86_feature_detected", "target_feature", "std::arch::"] {
            assert!(
                !text.contains(needle),
                "{rel} uses {needle}: SIMD belongs in simd.rs"
            );
        }
    }
}

/// The bodies of the Python-facing functions and methods of one bindings
/// file (rustfmt'd: a function ends at its first `}` line at its indent).
fn python_entry_points(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let lines: Vec<&str> = text.lines().collect();
    let mut i = 0;
    let mut in_methods = false;
    while i < lines.len() {
        let l = lines[i];
        if l.starts_with("#[pymethods]") {
            in_methods = true;
        } else if in_methods && l == "}" {
            in_methods = false;
        }
        let (is_entry, indent) = if l == "#[pyfunction]" {
            (true, "")
        } else if in_methods && l.starts_with("    fn ") {
            (true, "    ")
        } else {
            (false, "")
        };
        if is_entry {
            let mut j = i;
            while !lines[j].trim_start().starts_with("fn ") {
                j += 1;
            }
            let name: String = lines[j]
                .trim_start()
                .trim_start_matches("fn ")
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            let end_line = format!("{indent}}}");
            let mut k = j;
            while lines[k] != end_line {
                k += 1;
            }
            out.push((name, lines[j..=k].join("\n")));
            i = k;
        }
        i += 1;
    }
    out
}

#[test]
fn every_python_entry_point_runs_in_the_panic_wrapper() {
    let dir = src().join("bindings");
    let mut seen = 0;
    for f in rust_files(&dir) {
        let text = fs::read_to_string(&f).unwrap();
        for (name, body) in python_entry_points(&text) {
            seen += 1;
            // `.run(py` and `.run_total(py`: the job value's runners, which call `enter`
            let guarded = [
                "enter(",
                "quick(",
                "quick_named(",
                ".run(py",
                ".run_total(py",
                "self.add_rule(",
            ]
            .iter()
            .any(|w| body.contains(w))
                || ["resolve(py,", "parse_metric(py,"]
                    .iter()
                    .any(|w| body.contains(w));
            assert!(
                guarded,
                "{}: {name} does not run in errors::enter or errors::quick",
                f.display()
            );
        }
    }
    assert!(seen > 40, "found only {seen} entry points");
}
