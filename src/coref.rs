//! Coreference scored as the CoNLL-2012 reference scorer (`scorer.pl` v8.01,
//! `conll/reference-coreference-scorers`) scores it, with LEA (Moosavi &
//! Strube 2016) as its reference implementation (`coval`) computes it.
//!
//! [`score_document`] takes one document's key and response entities, each
//! an ordered list of mentions `(first token, last token)` in the order the
//! scorer reads them (entities numbered by first appearance, mentions in the
//! order they close), and returns the document's sufficient statistics
//! ([`N_STATS`] numbers, laid out as [`STAT_NAMES`]): for every metric the
//! recall numerator and denominator and the precision numerator and
//! denominator (BLANC: those of the coreference links, then of the
//! non-coreference links). The corpus numbers `scorer.pl` prints are the
//! sums of these over documents, so a resample of documents is scored on
//! summed statistics without rescoring.
//!
//! Mention matching follows the scorer: a mention is identified by its exact
//! token span; a span repeated in the key keeps one identity (its last
//! occurrence's); a response mention repeating a span already matched to
//! the key is dropped (a [`Repeat`] records it), and response entities left
//! empty are dropped; response spans absent from the key ("invented", or
//! twinless) get identities of their own. MUC counts links over the
//! entities; B³ sums over the response mentions; CEAF takes the maximum
//! similarity one-to-one assignment of key to response entities (an exact
//! Kuhn–Munkres assignment on the scorer's costs `1 − φ`, summed in key
//! order as `1 − cost`); BLANC counts the coreference and non-coreference
//! links of the two partitions; LEA weighs each entity by its size and its
//! resolved links (a singleton's one self-link resolved when it is a
//! singleton on the other side too).

use std::collections::{HashMap, HashSet};

/// A mention: first and last token of the document (the scorer's line numbers, from 0).
pub type Span = (u32, u32);

/// Statistics per document.
pub const N_STATS: usize = 32;

/// The names of the statistics, in order.
pub const STAT_NAMES: [&str; N_STATS] = [
    "key_mentions",
    "response_mentions",
    "exact_mentions",
    "invented_ids",
    "muc_r_num",
    "muc_r_den",
    "muc_p_num",
    "muc_p_den",
    "bcub_r_num",
    "bcub_r_den",
    "bcub_p_num",
    "bcub_p_den",
    "ceafm_r_num",
    "ceafm_r_den",
    "ceafm_p_num",
    "ceafm_p_den",
    "ceafe_r_num",
    "ceafe_r_den",
    "ceafe_p_num",
    "ceafe_p_den",
    "blanc_c_r_num",
    "blanc_c_r_den",
    "blanc_c_p_num",
    "blanc_c_p_den",
    "blanc_n_r_num",
    "blanc_n_r_den",
    "blanc_n_p_num",
    "blanc_n_p_den",
    "lea_r_num",
    "lea_r_den",
    "lea_p_num",
    "lea_p_den",
];

/// Offsets of each metric's statistics in a document's row.
pub const MUC: usize = 4;
pub const BCUB: usize = 8;
pub const CEAFM: usize = 12;
pub const CEAFE: usize = 16;
pub const BLANC: usize = 20;
pub const LEA: usize = 28;

/// A repeated mention the scorer reports (it prints a line for each).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Repeat {
    /// In the key (else in the response).
    pub in_key: bool,
    pub span: Span,
    /// Key: the identity the span had and the next identity. Response: the
    /// identity the span is matched to, twice (the scorer prints both maps).
    pub a: u32,
    pub b: u32,
}

/// One document's statistics and the repeated mentions found in it.
#[derive(Clone, Debug)]
pub struct DocStats {
    pub stats: [f64; N_STATS],
    pub repeats: Vec<Repeat>,
}

/// Entities as lists of mention identities.
type Chains = Vec<Vec<u32>>;

/// Key and response entities as identities, the scorer's way (see the module documentation).
fn identify(key: &[Vec<Span>], response: &[Vec<Span>]) -> (Chains, Chains, [f64; 4], Vec<Repeat>) {
    let mut repeats = Vec::new();
    let mut id: HashMap<Span, u32> = HashMap::new();
    let mut next: u32 = 0;
    for ent in key {
        for &m in ent {
            if let Some(&old) = id.get(&m) {
                repeats.push(Repeat {
                    in_key: true,
                    span: m,
                    a: old,
                    b: next,
                });
            }
            id.insert(m, next);
            next += 1;
        }
    }
    let mut map: HashMap<Span, u32> = HashMap::new();
    let mut exact = 0u32;
    let mut kept: Vec<Vec<Span>> = Vec::with_capacity(response.len());
    for ent in response {
        let mut out = Vec::with_capacity(ent.len());
        for &m in ent {
            if let Some(&got) = map.get(&m) {
                repeats.push(Repeat {
                    in_key: false,
                    span: m,
                    a: got,
                    b: id.get(&m).copied().unwrap_or(got),
                });
                continue;
            }
            if let Some(&k) = id.get(&m) {
                map.insert(m, k);
                exact += 1;
            }
            out.push(m);
        }
        if !out.is_empty() {
            kept.push(out);
        }
    }
    for ent in &kept {
        for &m in ent {
            if let std::collections::hash_map::Entry::Vacant(v) = map.entry(m) {
                v.insert(next);
                next += 1;
            }
        }
    }
    let kchains: Chains = key
        .iter()
        .map(|e| e.iter().map(|m| id[m]).collect())
        .collect();
    let rchains: Chains = kept
        .iter()
        .map(|e| e.iter().map(|m| map[m]).collect())
        .collect();
    let ident = [
        id.len() as f64,
        map.len() as f64,
        f64::from(exact),
        f64::from(next) - id.len() as f64,
    ];
    (kchains, rchains, ident, repeats)
}

/// Identity → index of the last chain holding it.
fn index_of(chains: &Chains) -> HashMap<u32, usize> {
    let mut ix = HashMap::new();
    for (i, c) in chains.iter().enumerate() {
        for &m in c {
            ix.insert(m, i);
        }
    }
    ix
}

/// Sizes of the groups of `chain`'s identities by their chain in `ix` (identities absent from `ix` left out).
fn overlaps(chain: &[u32], ix: &HashMap<u32, usize>) -> HashMap<usize, u64> {
    let mut c: HashMap<usize, u64> = HashMap::new();
    for m in chain {
        if let Some(&k) = ix.get(m) {
            *c.entry(k).or_insert(0) += 1;
        }
    }
    c
}

fn muc(k: &Chains, r: &Chains, kix: &HashMap<u32, usize>) -> [f64; 4] {
    let correct: u64 = r
        .iter()
        .map(|c| overlaps(c, kix).values().map(|n| n - 1).sum::<u64>())
        .sum();
    let links = |cs: &Chains| -> u64 {
        cs.iter()
            .filter(|c| !c.is_empty())
            .map(|c| c.len() as u64 - 1)
            .sum()
    };
    let (kl, rl) = (links(k), links(r));
    [correct as f64, kl as f64, correct as f64, rl as f64]
}

/// |a ∩ b| as the scorer counts it: the members of `a` found in `b`.
fn common(a: &[u32], b: &[u32]) -> u64 {
    if b.len() <= 8 {
        return a.iter().filter(|m| b.contains(m)).count() as u64;
    }
    let s: HashSet<u32> = b.iter().copied().collect();
    a.iter().filter(|m| s.contains(m)).count() as u64
}

fn bcub(k: &Chains, r: &Chains, kix: &HashMap<u32, usize>) -> [f64; 4] {
    let (mut acc_p, mut acc_r) = (0.0f64, 0.0f64);
    for rc in r {
        let ri = rc.len() as f64;
        let mut cache: HashMap<usize, u64> = HashMap::new();
        for m in rc {
            let (ci, ki) = match kix.get(m) {
                Some(&kc) => {
                    let ci = *cache.entry(kc).or_insert_with(|| common(rc, &k[kc]));
                    (ci as f64, k[kc].len() as f64)
                }
                None => (0.0, 0.0),
            };
            if ri != 0.0 {
                acc_p += ci / ri;
            }
            if ki != 0.0 {
                acc_r += ci / ki;
            }
        }
    }
    let km: usize = k.iter().map(Vec::len).sum();
    let rm: usize = r.iter().map(Vec::len).sum();
    [acc_r, km as f64, acc_p, rm as f64]
}

/// A maximum-weight assignment of rows to columns minimising `cost` (rows ≤ columns):
/// `out[row] = column`. Kuhn–Munkres with potentials (shortest augmenting paths), O(n²m).
fn assign_min(cost: &[Vec<f64>], n: usize, m: usize) -> Vec<usize> {
    debug_assert!(n <= m);
    let inf = f64::INFINITY;
    let mut u = vec![0.0f64; n + 1];
    let mut v = vec![0.0f64; m + 1];
    let mut p = vec![0usize; m + 1]; // p[j]: row (1-based) matched to column j
    let mut way = vec![0usize; m + 1];
    for i in 1..=n {
        p[0] = i;
        let mut j0 = 0usize;
        let mut minv = vec![inf; m + 1];
        let mut used = vec![false; m + 1];
        loop {
            used[j0] = true;
            let i0 = p[j0];
            let mut delta = inf;
            let mut j1 = 0usize;
            for j in 1..=m {
                if !used[j] {
                    let cur = cost[i0 - 1][j - 1] - u[i0] - v[j];
                    if cur < minv[j] {
                        minv[j] = cur;
                        way[j] = j0;
                    }
                    if minv[j] < delta {
                        delta = minv[j];
                        j1 = j;
                    }
                }
            }
            for j in 0..=m {
                if used[j] {
                    u[p[j]] += delta;
                    v[j] -= delta;
                } else {
                    minv[j] -= delta;
                }
            }
            j0 = j1;
            if p[j0] == 0 {
                break;
            }
        }
        loop {
            let j1 = way[j0];
            p[j0] = p[j1];
            j0 = j1;
            if j0 == 0 {
                break;
            }
        }
    }
    let mut out = vec![usize::MAX; n];
    for j in 1..=m {
        if p[j] != 0 {
            out[p[j] - 1] = j - 1;
        }
    }
    out
}

/// CEAF: `entity` true for φ4 (entity-based), false for φ3 (mention-based).
fn ceaf(k: &Chains, r: &Chains, entity: bool) -> [f64; 4] {
    let (nk, nr) = (k.len(), r.len());
    let sim = |a: &[u32], b: &[u32]| -> f64 {
        let i = common(a, b);
        if entity {
            let d = (a.len() + b.len()) as f64;
            if d == 0.0 {
                0.0
            } else {
                (2 * i) as f64 / d
            }
        } else {
            i as f64
        }
    };
    // the scorer's cost of pairing key i with response j: 1 − φ (1 where there is no response)
    let mut num = 0.0f64;
    if nk > 0 && nr > 0 {
        let cost: Vec<Vec<f64>> = k
            .iter()
            .map(|kc| r.iter().map(|rc| 1.0 - sim(kc, rc)).collect())
            .collect();
        let pick: Vec<Option<usize>> = if nk <= nr {
            assign_min(&cost, nk, nr).into_iter().map(Some).collect()
        } else {
            let t: Vec<Vec<f64>> = (0..nr)
                .map(|j| (0..nk).map(|i| cost[i][j]).collect())
                .collect();
            let cols = assign_min(&t, nr, nk);
            let mut pick = vec![None; nk];
            for (j, &i) in cols.iter().enumerate() {
                pick[i] = Some(j);
            }
            pick
        };
        for (i, pj) in pick.iter().enumerate() {
            if let Some(j) = *pj {
                num += 1.0 - cost[i][j];
            }
        }
    }
    let (dr, dp) = if entity {
        (
            k.iter().filter(|c| !c.is_empty()).count() as f64,
            r.iter().filter(|c| !c.is_empty()).count() as f64,
        )
    } else {
        (
            k.iter().map(Vec::len).sum::<usize>() as f64,
            r.iter().map(Vec::len).sum::<usize>() as f64,
        )
    };
    [num, dr, num, dp]
}

fn pairs(n: u64) -> u64 {
    n * n.saturating_sub(1) / 2
}

fn distinct(c: &Chains) -> bool {
    let mut seen = HashSet::new();
    c.iter().flatten().all(|m| seen.insert(*m))
}

/// A set of links (pairs of identities, the smaller first).
type Links = HashSet<(u32, u32)>;

/// The link sets, listed as the scorer lists them (for partitions with repeated identities).
fn link_sets(c: &Chains) -> (Links, Links) {
    let key = |a: u32, b: u32| if a <= b { (a, b) } else { (b, a) };
    let mut co = HashSet::new();
    let mut non = HashSet::new();
    for (x, ch) in c.iter().enumerate() {
        for i in 0..ch.len() {
            for j in i + 1..ch.len() {
                co.insert(key(ch[i], ch[j]));
            }
        }
        for other in &c[x + 1..] {
            for &a in ch {
                for &b in other {
                    non.insert(key(a, b));
                }
            }
        }
    }
    (co, non)
}

fn blanc(k: &Chains, r: &Chains, kix: &HashMap<u32, usize>, rix: &HashMap<u32, usize>) -> [f64; 8] {
    if !distinct(k) || !distinct(r) {
        let (kc, kn) = link_sets(k);
        let (rc, rn) = link_sets(r);
        let cc = kc.intersection(&rc).count() as f64;
        let cn = kn.intersection(&rn).count() as f64;
        return [
            cc,
            kc.len() as f64,
            cc,
            rc.len() as f64,
            cn,
            kn.len() as f64,
            cn,
            rn.len() as f64,
        ];
    }
    // every identity once: the link counts by formula
    let nk: u64 = k.iter().map(|c| c.len() as u64).sum();
    let nr: u64 = r.iter().map(|c| c.len() as u64).sum();
    let kc: u64 = k.iter().map(|c| pairs(c.len() as u64)).sum();
    let rc: u64 = r.iter().map(|c| pairs(c.len() as u64)).sum();
    let mut both = 0u64; // pairs coreferent in key and response
    let mut in_r = 0u64; // pairs of common mentions coreferent in the response
    let mut n_common = 0u64;
    for c in r {
        let ov = overlaps(c, kix);
        let here: u64 = ov.values().sum();
        n_common += here;
        in_r += pairs(here);
        both += ov.values().map(|&n| pairs(n)).sum::<u64>();
    }
    let in_k: u64 = k
        .iter()
        .map(|c| pairs(c.iter().filter(|m| rix.contains_key(m)).count() as u64))
        .sum();
    let kn = pairs(nk) - kc;
    let rn = pairs(nr) - rc;
    let cn = pairs(n_common) + both - in_k - in_r;
    [
        both as f64,
        kc as f64,
        both as f64,
        rc as f64,
        cn as f64,
        kn as f64,
        cn as f64,
        rn as f64,
    ]
}

/// LEA's numerator and denominator of `input` against `output` (`oix`: identity → output chain).
fn lea_side(input: &Chains, output: &Chains, oix: &HashMap<u32, usize>) -> (f64, f64) {
    let (mut num, mut den) = (0.0f64, 0.0f64);
    for c in input {
        let n = c.len() as u64;
        let (common, all) = if n == 1 {
            let ok = oix.get(&c[0]).is_some_and(|&o| output[o].len() == 1);
            (u64::from(ok), 1.0)
        } else {
            let links: u64 = overlaps(c, oix).values().map(|&x| pairs(x)).sum();
            (links, (n * (n - 1)) as f64 / 2.0)
        };
        num += (n * common) as f64 / all;
        den += n as f64;
    }
    (num, den)
}

fn lea(k: &Chains, r: &Chains, kix: &HashMap<u32, usize>, rix: &HashMap<u32, usize>) -> [f64; 4] {
    let (rn, rd) = lea_side(k, r, rix);
    let (pn, pd) = lea_side(r, k, kix);
    [rn, rd, pn, pd]
}

/// One document's statistics (see the module documentation).
#[must_use]
pub fn score_document(key: &[Vec<Span>], response: &[Vec<Span>]) -> DocStats {
    let key: Vec<Vec<Span>> = key.iter().filter(|e| !e.is_empty()).cloned().collect();
    let (k, r, ident, repeats) = identify(&key, response);
    let kix = index_of(&k);
    let rix = index_of(&r);
    let mut s = [0.0f64; N_STATS];
    s[..4].copy_from_slice(&ident);
    s[MUC..MUC + 4].copy_from_slice(&muc(&k, &r, &kix));
    s[BCUB..BCUB + 4].copy_from_slice(&bcub(&k, &r, &kix));
    s[CEAFM..CEAFM + 4].copy_from_slice(&ceaf(&k, &r, false));
    s[CEAFE..CEAFE + 4].copy_from_slice(&ceaf(&k, &r, true));
    s[BLANC..BLANC + 8].copy_from_slice(&blanc(&k, &r, &kix, &rix));
    s[LEA..LEA + 4].copy_from_slice(&lea(&k, &r, &kix, &rix));
    DocStats { stats: s, repeats }
}

/// Entities of every document from rows `(document, entity, first, last)` sorted by document,
/// then entity (mentions of an entity in reading order); `n_docs` documents.
pub fn group(
    doc: &[u32],
    ent: &[u32],
    first: &[u32],
    last: &[u32],
    n_docs: usize,
) -> crate::Result<Vec<Vec<Vec<Span>>>> {
    let n = doc.len();
    if ent.len() != n || first.len() != n || last.len() != n {
        return Err(crate::Error::input("mention columns of different lengths"));
    }
    let mut out: Vec<Vec<Vec<Span>>> = vec![Vec::new(); n_docs];
    let mut prev: Option<(u32, u32)> = None;
    for i in 0..n {
        let (d, e) = (doc[i], ent[i]);
        if d as usize >= n_docs {
            return Err(crate::Error::input(format!(
                "mention {i}: document {d} of {n_docs}"
            )));
        }
        if prev.is_some_and(|p| (d, e) < p) {
            return Err(crate::Error::input(format!(
                "mention {i}: rows not sorted by document and entity"
            )));
        }
        if prev != Some((d, e)) {
            out[d as usize].push(Vec::new());
        }
        out[d as usize]
            .last_mut()
            .expect("pushed")
            .push((first[i], last[i]));
        prev = Some((d, e));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Entities from letters: each string an entity, each letter a one-token mention at its
    /// alphabet position (the scorer's test cases write them this way).
    fn ents(s: &[&str]) -> Vec<Vec<Span>> {
        s.iter()
            .map(|e| {
                e.bytes()
                    .map(|c| {
                        let t = u32::from(c);
                        (t, t)
                    })
                    .collect()
            })
            .collect()
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-12
    }

    // Expected values: TestCases.README of conll/reference-coreference-scorers (hand counts).
    #[test]
    fn tc_a_perfect_and_missing() {
        let key = ents(&["a", "bc", "def"]);
        let s = score_document(&key, &key).stats;
        assert_eq!(&s[MUC..MUC + 4], &[3.0, 3.0, 3.0, 3.0]);
        assert_eq!(
            &s[BLANC..BLANC + 8],
            &[4.0, 4.0, 4.0, 4.0, 11.0, 11.0, 11.0, 11.0]
        );
        assert_eq!(&s[CEAFE..CEAFE + 4], &[3.0, 3.0, 3.0, 3.0]);
        assert_eq!(&s[LEA..LEA + 4], &[6.0, 6.0, 6.0, 6.0]);
        // TC-A-2: {a} {de}
        let s = score_document(&key, &ents(&["a", "de"])).stats;
        assert_eq!(&s[MUC..MUC + 4], &[1.0, 3.0, 1.0, 1.0]);
        assert!(close(s[BCUB] / 6.0, 7.0 / 18.0) && s[BCUB + 2] == 3.0);
        assert_eq!(&s[CEAFM..CEAFM + 4], &[3.0, 6.0, 3.0, 3.0]);
        assert!(close(s[CEAFE], 1.8) && s[CEAFE + 1] == 3.0 && s[CEAFE + 3] == 2.0);
        assert_eq!(
            &s[BLANC..BLANC + 8],
            &[1.0, 4.0, 1.0, 1.0, 2.0, 11.0, 2.0, 2.0]
        );
    }

    #[test]
    fn tc_a_spurious_and_both() {
        let key = ents(&["a", "bc", "def"]);
        // TC-A-3: {a} {bcx} {defy} {z}
        let s = score_document(&key, &ents(&["a", "bcx", "defy", "z"])).stats;
        assert_eq!(&s[MUC..MUC + 4], &[3.0, 3.0, 3.0, 5.0]);
        assert!(close(s[BCUB], 6.0) && close(s[BCUB + 2] / 9.0, 55.0 / 108.0));
        assert_eq!(&s[CEAFM..CEAFM + 4], &[6.0, 6.0, 6.0, 9.0]);
        assert!(close(s[CEAFE], 1.0 + 0.8 + 6.0 / 7.0) && s[CEAFE + 3] == 4.0);
        assert_eq!(
            &s[BLANC..BLANC + 8],
            &[4.0, 4.0, 4.0, 9.0, 11.0, 11.0, 11.0, 27.0]
        );
        // TC-A-4: {a} {bcx} {dy} {z}
        let s = score_document(&key, &ents(&["a", "bcx", "dy", "z"])).stats;
        assert_eq!(&s[MUC..MUC + 4], &[1.0, 3.0, 1.0, 3.0]);
        assert!(close(s[BCUB] / 6.0, 5.0 / 9.0) && close(s[BCUB + 2] / 7.0, 17.0 / 42.0));
        assert_eq!(&s[CEAFM..CEAFM + 4], &[4.0, 6.0, 4.0, 7.0]);
        assert!(close(s[CEAFE], 2.2) && s[CEAFE + 1] == 3.0 && s[CEAFE + 3] == 4.0);
        assert_eq!(
            &s[BLANC..BLANC + 8],
            &[1.0, 4.0, 1.0, 4.0, 5.0, 11.0, 5.0, 17.0]
        );
        assert_eq!(&s[..4], &[6.0, 7.0, 4.0, 3.0]);
    }

    #[test]
    fn repeated_response_mention_is_dropped() {
        // TC-A-7: {a} {bcxB} {dy} {z} with B repeating b: scored as {a} {bcx} {dy} {z}
        let key = ents(&["a", "bc", "def"]);
        let mut rsp = ents(&["a", "bcx", "dy", "z"]);
        rsp[1].push((u32::from(b'b'), u32::from(b'b')));
        let d = score_document(&key, &rsp);
        let plain = score_document(&key, &ents(&["a", "bcx", "dy", "z"]));
        assert_eq!(d.stats, plain.stats);
        assert_eq!(d.repeats.len(), 1);
        assert!(!d.repeats[0].in_key);
    }

    #[test]
    fn lea_by_hand() {
        // Moosavi & Strube 2016, section 4: key {a b c} {d e f g}, response {a b} {c d} {f g h i}
        let k = ents(&["abc", "defg"]);
        let r = ents(&["ab", "cd", "fghi"]);
        let s = score_document(&k, &r).stats;
        // recall (3·1/3 + 4·1/6) / 7, precision (2·1 + 2·0 + 4·1/6) / 8
        assert!(close(s[LEA], 3.0 / 3.0 + 4.0 / 6.0) && s[LEA + 1] == 7.0);
        assert!(close(s[LEA + 2], 2.0 + 4.0 / 6.0) && s[LEA + 3] == 8.0);
    }

    /// BLANC's formulas equal the link sets the scorer builds, on random partitions.
    #[test]
    fn blanc_formula_equals_link_sets() {
        let mut x: u64 = 7;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for _ in 0..200 {
            let n = (next() % 30) as u32;
            let mut k: Chains = vec![Vec::new(); 1 + (next() % 6) as usize];
            let mut r: Chains = vec![Vec::new(); 1 + (next() % 6) as usize];
            let kl = k.len() as u64;
            let rl = r.len() as u64;
            for m in 0..n {
                if next() % 4 != 0 {
                    k[(next() % kl) as usize].push(m);
                }
                if next() % 4 != 0 {
                    r[(next() % rl) as usize].push(m);
                }
            }
            k.retain(|c| !c.is_empty());
            r.retain(|c| !c.is_empty());
            let (kix, rix) = (index_of(&k), index_of(&r));
            let f = blanc(&k, &r, &kix, &rix);
            let (kc, kn) = link_sets(&k);
            let (rc, rn) = link_sets(&r);
            let want = [
                kc.intersection(&rc).count() as f64,
                kc.len() as f64,
                kc.intersection(&rc).count() as f64,
                rc.len() as f64,
                kn.intersection(&rn).count() as f64,
                kn.len() as f64,
                kn.intersection(&rn).count() as f64,
                rn.len() as f64,
            ];
            assert_eq!(f, want);
        }
    }

    /// The assignment is optimal: brute force over every permutation of small matrices.
    #[test]
    fn assignment_is_optimal() {
        fn perms(v: &mut Vec<usize>, k: usize, out: &mut Vec<Vec<usize>>) {
            if k == v.len() {
                out.push(v.clone());
                return;
            }
            for i in k..v.len() {
                v.swap(k, i);
                perms(v, k + 1, out);
                v.swap(k, i);
            }
        }
        let mut x: u64 = 99;
        for n in 1..=4usize {
            for m in n..=6usize {
                for _ in 0..20 {
                    let cost: Vec<Vec<f64>> = (0..n)
                        .map(|_| {
                            (0..m)
                                .map(|_| {
                                    x = x
                                        .wrapping_mul(6364136223846793005)
                                        .wrapping_add(1442695040888963407);
                                    ((x >> 33) % 7) as f64 / 7.0
                                })
                                .collect()
                        })
                        .collect();
                    let a = assign_min(&cost, n, m);
                    let got: f64 = a.iter().enumerate().map(|(i, &j)| cost[i][j]).sum();
                    let mut all = Vec::new();
                    perms(&mut (0..m).collect(), 0, &mut all);
                    let best = all
                        .iter()
                        .map(|p| (0..n).map(|i| cost[i][p[i]]).sum::<f64>())
                        .fold(f64::INFINITY, f64::min);
                    assert!((got - best).abs() < 1e-12, "{got} {best}");
                }
            }
        }
    }

    #[test]
    fn empty_response_and_empty_key() {
        let key = ents(&["ab", "c"]);
        let s = score_document(&key, &[]).stats;
        assert_eq!(&s[..4], &[3.0, 0.0, 0.0, 0.0]);
        assert_eq!(&s[MUC..MUC + 4], &[0.0, 1.0, 0.0, 0.0]);
        assert_eq!(&s[CEAFE..CEAFE + 4], &[0.0, 2.0, 0.0, 0.0]);
        let s = score_document(&[], &key).stats;
        assert_eq!(&s[..4], &[0.0, 3.0, 0.0, 3.0]);
        assert_eq!(
            &s[BLANC..BLANC + 8],
            &[0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 2.0]
        );
    }
}
