//! The Porter stemmer as NLTK's `PorterStemmer()` applies it by default
//! (its `NLTK_EXTENSIONS` mode), which is what rouge-score uses for
//! `use_stemmer=True`.
//!
//! On top of Porter's published algorithm (Porter 1980) that mode has:
//! a small table of irregular forms answered directly; words of at most two
//! characters left alone; `-ies`/`-ied` of four-letter words becoming `-ie`
//! and longer `-ied` becoming `-i`; `-y` → `-i` only after a consonant that
//! is not the whole stem; the `m = 1 and *o` test also true for a two-letter
//! vowel–consonant stem; step 2 turning `-alli` into `-al` and starting over,
//! `-bli` → `-ble` (instead of `-abli` → `-able`), `-fulli` → `-ful`, and
//! `-logi` → `-log` when the word minus `ogi` has a positive measure; step 5b
//! measuring the word minus its last letter.

/// Words the NLTK mode answers from its table of irregular forms.
fn irregular(word: &str) -> Option<&'static str> {
    Some(match word {
        "sky" | "skies" => "sky",
        "dying" => "die",
        "lying" => "lie",
        "tying" => "tie",
        "news" => "news",
        "innings" | "inning" => "inning",
        "outings" | "outing" => "outing",
        "cannings" | "canning" => "canning",
        "howe" => "howe",
        "proceed" => "proceed",
        "exceed" => "exceed",
        "succeed" => "succeed",
        _ => return None,
    })
}

fn is_vowel_letter(c: char) -> bool {
    matches!(c, 'a' | 'e' | 'i' | 'o' | 'u')
}

/// Whether `w[i]` is a consonant in Porter's sense: not a vowel letter, and
/// a `y` only when it starts the word or follows a vowel. A `y` after a
/// consonant is a vowel, so runs of `y` alternate.
fn is_cons(w: &[char], i: usize) -> bool {
    let c = w[i];
    if is_vowel_letter(c) {
        return false;
    }
    if c != 'y' {
        return true;
    }
    // walk back over the run of y's that ends at i
    let mut k = i;
    while k > 0 && w[k] == 'y' {
        k -= 1;
    }
    let run = i - k; // y's counted from i down to k + 1
    if w[k] == 'y' {
        // the run reaches the start: the first y is a consonant
        run % 2 == 0
    } else {
        // the letter before the run decides the first y of the run
        is_vowel_letter(w[k]) == (run % 2 == 1)
    }
}

/// Porter's measure m of `w`: the number of vowel→consonant transitions.
fn measure(w: &[char]) -> usize {
    let mut m = 0;
    let mut prev_vowel = false;
    let mut prev_cons_flag = true;
    for (i, &c) in w.iter().enumerate() {
        let cons = if is_vowel_letter(c) {
            false
        } else if c == 'y' {
            i == 0 || !prev_cons_flag
        } else {
            true
        };
        if cons && prev_vowel {
            m += 1;
        }
        prev_vowel = !cons;
        prev_cons_flag = cons;
    }
    m
}

fn has_vowel(w: &[char]) -> bool {
    (0..w.len()).any(|i| !is_cons(w, i))
}

fn ends_double_cons(w: &[char]) -> bool {
    let n = w.len();
    n >= 2 && w[n - 1] == w[n - 2] && is_cons(w, n - 1)
}

/// Porter's `*o`, with the NLTK mode's two-letter vowel–consonant case.
fn ends_cvc(w: &[char]) -> bool {
    let n = w.len();
    (n >= 3
        && is_cons(w, n - 3)
        && !is_cons(w, n - 2)
        && is_cons(w, n - 1)
        && !matches!(w[n - 1], 'w' | 'x' | 'y'))
        || (n == 2 && !is_cons(w, 0) && is_cons(w, 1))
}

fn ends_with(w: &[char], suffix: &str) -> bool {
    let k = suffix.chars().count();
    k <= w.len() && w[w.len() - k..].iter().copied().eq(suffix.chars())
}

fn replace_end(w: &mut Vec<char>, cut: usize, with: &str) {
    w.truncate(w.len() - cut);
    w.extend(with.chars());
}

#[derive(Clone, Copy)]
enum Cond {
    Always,
    /// measure(stem) > 0
    M0,
    /// measure(stem) > 1
    M1,
    /// measure(stem) > 1 and the stem ends in s or t
    M1St,
    /// the measure of the word minus its last three letters is positive
    WordLess3M0,
}

/// The first rule whose suffix ends `w` decides: its replacement is made if
/// its condition holds on the stem, and nothing else is tried either way.
fn first_rule(w: &mut Vec<char>, rules: &[(&str, &str, Cond)]) {
    for &(suffix, repl, cond) in rules {
        if !ends_with(w, suffix) {
            continue;
        }
        let stem = &w[..w.len() - suffix.len()];
        let ok = match cond {
            Cond::Always => true,
            Cond::M0 => measure(stem) > 0,
            Cond::M1 => measure(stem) > 1,
            Cond::M1St => measure(stem) > 1 && matches!(stem.last(), Some('s' | 't')),
            Cond::WordLess3M0 => measure(&w[..w.len() - 3]) > 0,
        };
        if ok {
            replace_end(w, suffix.len(), repl);
        }
        return;
    }
}

fn step1a(w: &mut Vec<char>) {
    if w.len() == 4 && ends_with(w, "ies") {
        replace_end(w, 3, "ie");
        return;
    }
    first_rule(
        w,
        &[
            ("sses", "ss", Cond::Always),
            ("ies", "i", Cond::Always),
            ("ss", "ss", Cond::Always),
            ("s", "", Cond::Always),
        ],
    );
}

fn step1b(w: &mut Vec<char>) {
    if ends_with(w, "ied") {
        let with = if w.len() == 4 { "ie" } else { "i" };
        replace_end(w, 3, with);
        return;
    }
    if ends_with(w, "eed") {
        if measure(&w[..w.len() - 3]) > 0 {
            replace_end(w, 3, "ee");
        }
        return;
    }
    let cut = ["ed", "ing"]
        .into_iter()
        .find(|s| ends_with(w, s) && has_vowel(&w[..w.len() - s.len()]));
    let Some(cut) = cut else { return };
    w.truncate(w.len() - cut.len());
    // tidy the stem that is left
    for (end, add) in [("at", "e"), ("bl", "e"), ("iz", "e")] {
        if ends_with(w, end) {
            w.extend(add.chars());
            return;
        }
    }
    if ends_double_cons(w) {
        if !matches!(w[w.len() - 1], 'l' | 's' | 'z') {
            w.pop();
        }
        return;
    }
    if measure(w) == 1 && ends_cvc(w) {
        w.push('e');
    }
}

fn step1c(w: &mut [char]) {
    let n = w.len();
    if n >= 1 && w[n - 1] == 'y' {
        let stem = &w[..n - 1];
        if stem.len() > 1 && is_cons(stem, stem.len() - 1) {
            w[n - 1] = 'i';
        }
    }
}

fn step2(w: &mut Vec<char>) {
    loop {
        if ends_with(w, "alli") && measure(&w[..w.len() - 4]) > 0 {
            replace_end(w, 4, "al");
            continue;
        }
        break;
    }
    first_rule(
        w,
        &[
            ("ational", "ate", Cond::M0),
            ("tional", "tion", Cond::M0),
            ("enci", "ence", Cond::M0),
            ("anci", "ance", Cond::M0),
            ("izer", "ize", Cond::M0),
            ("bli", "ble", Cond::M0),
            ("alli", "al", Cond::M0),
            ("entli", "ent", Cond::M0),
            ("eli", "e", Cond::M0),
            ("ousli", "ous", Cond::M0),
            ("ization", "ize", Cond::M0),
            ("ation", "ate", Cond::M0),
            ("ator", "ate", Cond::M0),
            ("alism", "al", Cond::M0),
            ("iveness", "ive", Cond::M0),
            ("fulness", "ful", Cond::M0),
            ("ousness", "ous", Cond::M0),
            ("aliti", "al", Cond::M0),
            ("iviti", "ive", Cond::M0),
            ("biliti", "ble", Cond::M0),
            ("fulli", "ful", Cond::M0),
            ("logi", "log", Cond::WordLess3M0),
        ],
    );
}

fn step3(w: &mut Vec<char>) {
    first_rule(
        w,
        &[
            ("icate", "ic", Cond::M0),
            ("ative", "", Cond::M0),
            ("alize", "al", Cond::M0),
            ("iciti", "ic", Cond::M0),
            ("ical", "ic", Cond::M0),
            ("ful", "", Cond::M0),
            ("ness", "", Cond::M0),
        ],
    );
}

fn step4(w: &mut Vec<char>) {
    first_rule(
        w,
        &[
            ("al", "", Cond::M1),
            ("ance", "", Cond::M1),
            ("ence", "", Cond::M1),
            ("er", "", Cond::M1),
            ("ic", "", Cond::M1),
            ("able", "", Cond::M1),
            ("ible", "", Cond::M1),
            ("ant", "", Cond::M1),
            ("ement", "", Cond::M1),
            ("ment", "", Cond::M1),
            ("ent", "", Cond::M1),
            ("ion", "", Cond::M1St),
            ("ou", "", Cond::M1),
            ("ism", "", Cond::M1),
            ("ate", "", Cond::M1),
            ("iti", "", Cond::M1),
            ("ous", "", Cond::M1),
            ("ive", "", Cond::M1),
            ("ize", "", Cond::M1),
        ],
    );
}

fn step5(w: &mut Vec<char>) {
    // 5a: a final e goes when m > 1, or m = 1 and the stem is not *o
    if w.last() == Some(&'e') {
        let stem = &w[..w.len() - 1];
        let m = measure(stem);
        if m > 1 || (m == 1 && !ends_cvc(stem)) {
            w.pop();
        }
    }
    // 5b: a final ll loses one l when the word without its last letter has m > 1
    if ends_with(w, "ll") && measure(&w[..w.len() - 1]) > 1 {
        w.pop();
    }
}

/// The stem of one word, as `nltk.stem.porter.PorterStemmer().stem(word)`
/// returns it (the word is lowercased first, with Rust's Unicode tables;
/// ROUGE only stems ASCII words).
pub fn stem(word: &str) -> String {
    let lower = word.to_lowercase();
    if let Some(s) = irregular(&lower) {
        return s.to_string();
    }
    if word.chars().count() <= 2 {
        return lower;
    }
    let mut w: Vec<char> = lower.chars().collect();
    step1a(&mut w);
    step1b(&mut w);
    step1c(&mut w);
    step2(&mut w);
    step3(&mut w);
    step4(&mut w);
    step5(&mut w);
    w.into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn consonants_and_measure() {
        let w: Vec<char> = "syzygy".chars().collect();
        let flags: Vec<bool> = (0..w.len()).map(|i| is_cons(&w, i)).collect();
        assert_eq!(flags, [true, false, true, false, true, false]);
        let toy: Vec<char> = "toy".chars().collect();
        assert!(is_cons(&toy, 2));
        for (s, m) in [
            ("tr", 0),
            ("ee", 0),
            ("tree", 0),
            ("y", 0),
            ("by", 0),
            ("trouble", 1),
            ("oats", 1),
            ("trees", 1),
            ("ivy", 1),
            ("troubles", 2),
            ("private", 2),
            ("oaten", 2),
            ("orrery", 2),
        ] {
            let w: Vec<char> = s.chars().collect();
            assert_eq!(measure(&w), m, "{s}");
        }
    }

    #[test]
    fn paper_examples() {
        // examples from Porter (1980), as the NLTK mode stems them
        for (w, s) in [
            ("caresses", "caress"),
            ("ponies", "poni"),
            ("ties", "tie"),
            ("cats", "cat"),
            ("feed", "feed"),
            ("agreed", "agre"),
            ("plastered", "plaster"),
            ("bled", "bled"),
            ("motoring", "motor"),
            ("sing", "sing"),
            ("conflated", "conflat"),
            ("hopping", "hop"),
            ("falling", "fall"),
            ("filing", "file"),
            ("happy", "happi"),
            ("relational", "relat"),
            ("conditional", "condit"),
            ("triplicate", "triplic"),
            ("hopeful", "hope"),
            ("goodness", "good"),
            ("adoption", "adopt"),
            ("controlling", "control"),
            ("generalization", "gener"),
            ("skies", "sky"),
            ("dying", "die"),
            ("news", "news"),
            ("is", "is"),
            ("enjoy", "enjoy"),
            ("spy", "spi"),
            ("tied", "tie"),
            ("cried", "cri"),
            ("analogi", "analog"),
        ] {
            assert_eq!(stem(w), s, "{w}");
        }
    }
}
