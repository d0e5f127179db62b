//! The house's layout rules, checked over every source file of the workspace so a
//! newcomer can trust them: no import circle between files, no function over 80
//! lines, no file over 800 lines (inline unit tests aside). See
//! `../shared/docs/style.md`: one concept per file; where two files need each
//! other, a third holds what they share.
//!
//! The scan is textual, not a Rust parser: it follows `crate::`, `super::` and
//! child-module paths, which is how this code base refers to its files.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

const MAX_FUNCTION_LINES: usize = 80;
const MAX_FILE_LINES: usize = 800;

/// One crate's source files, by module path (`["search", "tt"]` for search/tt.rs).
struct Crate {
    files: BTreeMap<Vec<String>, PathBuf>,
}

fn crates() -> Vec<Crate> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut roots = vec![root.join("src")];
    for entry in fs::read_dir(root.join("crates")).expect("crates/ exists") {
        let src = entry.expect("readable crates/").path().join("src");
        if src.is_dir() {
            roots.push(src);
        }
    }
    roots
        .into_iter()
        .map(|src| {
            let mut files = BTreeMap::new();
            collect(&src, &src, &mut files);
            Crate { files }
        })
        .collect()
}

fn collect(src: &Path, dir: &Path, files: &mut BTreeMap<Vec<String>, PathBuf>) {
    for entry in fs::read_dir(dir).expect("readable source folder") {
        let path = entry.expect("readable entry").path();
        if path.is_dir() {
            collect(src, &path, files);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let relative = path.strip_prefix(src).expect("under src");
            let mut module: Vec<String> = relative
                .with_extension("")
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            if matches!(module.as_slice(), [only] if only == "lib" || only == "main") {
                module.clear();
            }
            files.insert(module, path);
        }
    }
}

/// The file's lines before its inline unit tests (a `#[cfg(test)]` module at the
/// end, as every file here keeps them).
fn code_lines(text: &str) -> Vec<&str> {
    let lines: Vec<&str> = text.lines().collect();
    let end = (0..lines.len())
        .find(|&i| {
            lines[i].trim() == "#[cfg(test)]"
                && lines
                    .get(i + 1)
                    .is_some_and(|next| next.starts_with("mod ") && next.ends_with('{'))
        })
        .unwrap_or(lines.len());
    lines[..end].to_vec()
}

/// Every module path a line names: `crate::a::b`, `super::a`, `child::a`, with
/// one level of `{a, b::c}` groups expanded.
fn paths_named(line: &str) -> Vec<String> {
    let code = line.split("//").next().unwrap_or("");
    let mut out = Vec::new();
    let bytes: Vec<char> = code.chars().collect();
    let mut i = 0;
    while i < bytes.len() {
        let starts_word = i == 0 || !(bytes[i - 1].is_alphanumeric() || bytes[i - 1] == '_');
        if starts_word && (bytes[i].is_alphabetic() || bytes[i] == '_') {
            let mut j = i;
            while j < bytes.len()
                && (bytes[j].is_alphanumeric() || bytes[j] == '_' || bytes[j] == ':')
            {
                j += 1;
            }
            let path: String = bytes[i..j].iter().collect();
            if path.contains("::") {
                let path = path.trim_end_matches(':').to_string();
                if j < bytes.len() && bytes[j] == '{' && path.len() < j - i {
                    let close = (j..bytes.len())
                        .find(|&k| bytes[k] == '}')
                        .unwrap_or(bytes.len());
                    let group: String = bytes[j + 1..close].iter().collect();
                    for item in group.split(',') {
                        let item = item.trim().split(' ').next().unwrap_or("");
                        if !item.is_empty() && item != "self" {
                            out.push(format!("{path}::{item}"));
                        }
                    }
                    out.push(path);
                    i = close;
                    continue;
                }
                out.push(path);
            }
            i = j;
        } else {
            i += 1;
        }
    }
    out
}

/// The file a path names from `module`, if it is one of this crate's files other
/// than the module's own: the longest prefix that is a file.
fn resolve(krate: &Crate, module: &[String], path: &str) -> Option<Vec<String>> {
    let segments: Vec<&str> = path.split("::").collect();
    let mut base: Vec<String> = match segments[0] {
        "crate" => Vec::new(),
        "super" => module[..module.len().saturating_sub(1)].to_vec(),
        "self" => module.to_vec(),
        _ => module.to_vec(),
    };
    let rest = match segments[0] {
        "crate" | "super" | "self" => &segments[1..],
        child => {
            // A bare first segment names a child module of this one, or nothing here.
            let mut as_child = module.to_vec();
            as_child.push(child.to_string());
            if !krate.files.contains_key(&as_child) {
                return None;
            }
            &segments[..]
        }
    };
    // `super::Item`, `crate::Item`: the item lives in that module's own file.
    let mut found = krate.files.contains_key(&base).then(|| base.clone());
    for segment in rest {
        if *segment == "super" {
            base.pop();
            continue;
        }
        base.push((*segment).to_string());
        if krate.files.contains_key(&base) {
            found = Some(base.clone());
        }
    }
    found.filter(|f| f.as_slice() != module)
}

fn name(module: &[String]) -> String {
    if module.is_empty() {
        "lib".into()
    } else {
        module.join("/")
    }
}

#[test]
fn no_file_imports_a_file_that_imports_it_back() {
    let mut circles = Vec::new();
    for krate in crates() {
        let mut edges: BTreeMap<Vec<String>, BTreeSet<Vec<String>>> = BTreeMap::new();
        // For the message: the first line of each edge.
        let mut evidence: BTreeMap<(Vec<String>, Vec<String>), String> = BTreeMap::new();
        for (module, path) in &krate.files {
            let text = fs::read_to_string(path).expect("readable source");
            let targets = edges.entry(module.clone()).or_default();
            // Inline modules (`mod testing { ... }`) move `super::` one level down.
            let mut inline: Vec<(usize, String)> = Vec::new();
            for line in code_lines(&text) {
                let trimmed = line.trim_start();
                let indent = line.len() - trimmed.len();
                if inline
                    .last()
                    .is_some_and(|(at, _)| *at == indent && trimmed.starts_with('}'))
                {
                    inline.pop();
                }
                if let Some(rest) = trimmed
                    .strip_prefix("pub mod ")
                    .or(trimmed.strip_prefix("mod "))
                {
                    if let Some(inner) = rest.strip_suffix(" {") {
                        inline.push((indent, inner.to_string()));
                    }
                    continue;
                }
                if trimmed.starts_with("//") {
                    continue;
                }
                let mut here = module.clone();
                here.extend(inline.iter().map(|(_, m)| m.clone()));
                for named in paths_named(line) {
                    if let Some(target) = resolve(&krate, &here, &named).filter(|t| t != module) {
                        evidence
                            .entry((module.clone(), target.clone()))
                            .or_insert_with(|| trimmed.to_string());
                        targets.insert(target);
                    }
                }
            }
        }
        for group in cycles(&edges) {
            let mut text = group.iter().map(|m| name(m)).collect::<Vec<_>>().join(", ");
            for ((from, to), line) in &evidence {
                if group.contains(from) && group.contains(to) {
                    text += &format!("\n    {} -> {}: {line}", name(from), name(to));
                }
            }
            circles.push(text);
        }
    }
    assert!(
        circles.is_empty(),
        "files that import each other (move what they share into a third file):\n{}",
        circles.join("\n")
    );
}

/// The strongly connected groups of more than one file (Tarjan's algorithm).
fn cycles(edges: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>) -> Vec<Vec<Vec<String>>> {
    struct State<'a> {
        edges: &'a BTreeMap<Vec<String>, BTreeSet<Vec<String>>>,
        index: BTreeMap<&'a Vec<String>, usize>,
        low: BTreeMap<&'a Vec<String>, usize>,
        stack: Vec<&'a Vec<String>>,
        on_stack: BTreeSet<&'a Vec<String>>,
        found: Vec<Vec<Vec<String>>>,
    }
    fn visit<'a>(s: &mut State<'a>, v: &'a Vec<String>) {
        let n = s.index.len();
        s.index.insert(v, n);
        s.low.insert(v, n);
        s.stack.push(v);
        s.on_stack.insert(v);
        let edges = s.edges;
        for w in edges.get(v).into_iter().flatten() {
            let Some((w, _)) = edges.get_key_value(w) else {
                continue;
            };
            if !s.index.contains_key(w) {
                visit(s, w);
                let low = s.low[w].min(s.low[v]);
                s.low.insert(v, low);
            } else if s.on_stack.contains(w) {
                let low = s.index[w].min(s.low[v]);
                s.low.insert(v, low);
            }
        }
        if s.low[v] == s.index[v] {
            let mut group = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on_stack.remove(w);
                group.push(w.clone());
                if w == v {
                    break;
                }
            }
            if group.len() > 1 {
                s.found.push(group);
            }
        }
    }
    let mut state = State {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        found: Vec::new(),
    };
    for v in edges.keys() {
        if !state.index.contains_key(v) {
            visit(&mut state, v);
        }
    }
    state.found
}

/// Functions and their lengths in lines, signature to closing brace.
fn functions(lines: &[&str]) -> Vec<(usize, usize, String)> {
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let trimmed = line.trim_start();
        let is_fn = [
            "fn ",
            "pub fn ",
            "pub(crate) fn ",
            "pub(super) fn ",
            "const fn ",
        ]
        .iter()
        .chain(&["pub const fn ", "pub(crate) const fn ", "unsafe fn "])
        .any(|p| trimmed.starts_with(p));
        if !is_fn {
            continue;
        }
        let indent = line.len() - trimmed.len();
        // A declaration without a body (in a trait) ends with `;` before any `{`.
        let Some(open) =
            (i..lines.len()).find(|&k| lines[k].contains('{') || lines[k].ends_with(';'))
        else {
            continue;
        };
        if !lines[open].contains('{') {
            continue;
        }
        let close = (open..lines.len())
            .find(|&k| {
                let l = lines[k];
                (l.len() - l.trim_start().len() == indent && l.trim_start().starts_with('}'))
                    || (k == open
                        && l.trim_end().ends_with('}')
                        && l.matches('{').count() == l.matches('}').count())
            })
            .unwrap_or(lines.len() - 1);
        let name = trimmed
            .split("fn ")
            .nth(1)
            .and_then(|rest| rest.split(['(', '<']).next())
            .unwrap_or("?")
            .to_string();
        out.push((i + 1, close - i + 1, name));
    }
    out
}

#[test]
fn no_function_over_80_lines_and_no_file_over_800() {
    let mut long = Vec::new();
    for krate in crates() {
        for path in krate.files.values() {
            let text = fs::read_to_string(path).expect("readable source");
            let lines = code_lines(&text);
            let shown = path.display();
            if lines.len() > MAX_FILE_LINES {
                long.push(format!("{shown}: {} lines (tests aside)", lines.len()));
            }
            for (line, length, name) in functions(&lines) {
                if length > MAX_FUNCTION_LINES {
                    long.push(format!("{shown}:{line}: fn {name} has {length} lines"));
                }
            }
        }
    }
    assert!(
        long.is_empty(),
        "split these into named parts (functions under {MAX_FUNCTION_LINES} lines, files \
         under {MAX_FILE_LINES}):\n{}",
        long.join("\n")
    );
}

#[test]
fn the_scan_sees_paths_groups_and_long_functions() {
    assert_eq!(
        paths_named("use crate::egdb::{file::SliceFile, Tables};"),
        [
            "crate::egdb::file::SliceFile",
            "crate::egdb::Tables",
            "crate::egdb"
        ]
    );
    assert_eq!(
        paths_named("let x = super::tt::Entry::new(); // crate::no"),
        ["super::tt::Entry::new"]
    );
    let body: Vec<String> = std::iter::once("fn long() {".to_string())
        .chain((0..90).map(|i| format!("    let _x{i} = {i};")))
        .chain(std::iter::once("}".to_string()))
        .collect();
    let lines: Vec<&str> = body.iter().map(String::as_str).collect();
    assert_eq!(functions(&lines), [(1, 92, "long".to_string())]);
    let mut edges = BTreeMap::new();
    let (a, b, c) = (
        vec!["a".to_string()],
        vec!["b".to_string()],
        vec!["c".to_string()],
    );
    edges.insert(a.clone(), BTreeSet::from([b.clone()]));
    edges.insert(b.clone(), BTreeSet::from([a.clone(), c.clone()]));
    edges.insert(c.clone(), BTreeSet::new());
    assert_eq!(cycles(&edges).len(), 1);
}
