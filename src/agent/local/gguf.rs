//! A GGUF header reader: enough of the format to validate a model file
//! before llama.cpp (C code that may abort on a bad file) ever sees it, and
//! to list models with their architecture, chat template and size.
//!
//! Reads the header, every metadata entry (values we do not need are
//! skipped by length, never loaded) and the tensor index, then checks that
//! every tensor's data lies inside the file: a download cut short is caught
//! here, not by a crash. Every length is bounded by the file's size, so a
//! hostile header cannot make us allocate or loop beyond it.

use std::fs::File;
use std::io::{BufReader, Read};
use std::path::{Path, PathBuf};

/// The four bytes every GGUF file starts with.
const MAGIC: &[u8; 4] = b"GGUF";
/// Metadata entries and tensors we accept in one file (real models have
/// tens of entries and at most tens of thousands of tensors).
const MAX_ENTRIES: u64 = 1 << 20;
/// The longest metadata string we keep in memory (chat templates are a few KB).
const MAX_KEPT_STRING: u64 = 1 << 20;
/// GGUF's default data alignment.
const DEFAULT_ALIGNMENT: u64 = 32;

/// ggml tensor types we know the size of: (type id, name, elements per
/// block, bytes per block), from ggml's `type_traits`. A type not listed
/// only gets the weaker check (its data starts inside the file).
const TENSOR_TYPES: &[(u32, &str, u64, u64)] = &[
    (0, "F32", 1, 4),
    (1, "F16", 1, 2),
    (2, "Q4_0", 32, 18),
    (3, "Q4_1", 32, 20),
    (6, "Q5_0", 32, 22),
    (7, "Q5_1", 32, 24),
    (8, "Q8_0", 32, 34),
    (9, "Q8_1", 32, 36),
    (10, "Q2_K", 256, 84),
    (11, "Q3_K", 256, 110),
    (12, "Q4_K", 256, 144),
    (13, "Q5_K", 256, 176),
    (14, "Q6_K", 256, 210),
    (15, "Q8_K", 256, 292),
    (16, "IQ2_XXS", 256, 66),
    (17, "IQ2_XS", 256, 74),
    (18, "IQ3_XXS", 256, 98),
    (19, "IQ1_S", 256, 50),
    (20, "IQ4_NL", 32, 18),
    (21, "IQ3_S", 256, 110),
    (22, "IQ2_S", 256, 82),
    (23, "IQ4_XS", 256, 136),
    (24, "I8", 1, 1),
    (25, "I16", 1, 2),
    (26, "I32", 1, 4),
    (27, "I64", 1, 8),
    (28, "F64", 1, 8),
    (29, "IQ1_M", 256, 56),
    (30, "BF16", 1, 2),
    (34, "TQ1_0", 256, 54),
    (35, "TQ2_0", 256, 66),
];

/// What a GGUF file says about itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GgufInfo {
    /// The file.
    pub path: PathBuf,
    /// Its size in bytes.
    pub size: u64,
    /// The format version (2 or 3).
    pub version: u32,
    /// How many tensors it holds.
    pub tensor_count: u64,
    /// How many metadata entries it holds.
    pub kv_count: u64,
    /// `general.architecture` (`llama`, `qwen2`…).
    pub architecture: Option<String>,
    /// `general.name`, when set.
    pub name: Option<String>,
    /// `tokenizer.chat_template`, when set (else ChatML is used).
    pub chat_template: Option<String>,
    /// `<arch>.context_length`, when set.
    pub context_length: Option<u64>,
    /// `general.file_type` as ggml's name of the dominant tensor type, when known.
    pub quantization: Option<String>,
}

/// Why a file is not a usable GGUF model.
#[derive(Debug, thiserror::Error)]
pub enum GgufError {
    /// The file cannot be opened or read.
    #[error("cannot read `{path}`: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The system's reason.
        source: std::io::Error,
    },
    /// It does not start with `GGUF`.
    #[error("`{path}` is not a GGUF model file (it starts with {found:?}, not \"GGUF\")")]
    NotGguf {
        /// The file.
        path: PathBuf,
        /// The first bytes, printable.
        found: String,
    },
    /// A version this reader (and llama.cpp) does not read.
    #[error("`{path}` is GGUF version {version}; only versions 2 and 3 are read")]
    Version {
        /// The file.
        path: PathBuf,
        /// The version found.
        version: u32,
    },
    /// The file ends before what its header promises.
    #[error("`{path}` is truncated: {detail}")]
    Truncated {
        /// The file.
        path: PathBuf,
        /// What was missing.
        detail: String,
    },
    /// The header holds something impossible.
    #[error("`{path}` has a damaged header: {detail}")]
    Damaged {
        /// The file.
        path: PathBuf,
        /// What was wrong.
        detail: String,
    },
}

impl GgufError {
    /// What the user should do, for the CLI's `hint:` line.
    pub fn hint(&self) -> &'static str {
        match self {
            GgufError::Io { .. } => "check the path in `fararoni.chat.gguf` / `fararoni.llm.gguf` (`git fararoni models` lists the models found)",
            GgufError::NotGguf { .. } => "point the setting at a `.gguf` file (a safetensors or Ollama manifest is not one; `git fararoni models` lists the GGUF files found)",
            GgufError::Version { .. } => "convert the model again with a current llama.cpp, or pick another file",
            GgufError::Truncated { .. } => "the file was cut short (an interrupted download or copy): fetch it again",
            GgufError::Damaged { .. } => "the file is damaged: fetch it again",
        }
    }
}

/// Reads and checks the header of the GGUF file at `path`.
pub fn read(path: &Path) -> Result<GgufInfo, GgufError> {
    let io = |source| GgufError::Io {
        path: path.to_path_buf(),
        source,
    };
    let file = File::open(path).map_err(io)?;
    let meta = file.metadata().map_err(io)?;
    if !meta.is_file() {
        return Err(io(std::io::Error::other("not a regular file")));
    }
    let mut r = Reader {
        inner: BufReader::with_capacity(1 << 16, file),
        pos: 0,
        size: meta.len(),
        path,
    };
    r.header()
}

struct Reader<'a> {
    inner: BufReader<File>,
    pos: u64,
    size: u64,
    path: &'a Path,
}

/// A metadata value we keep (others are skipped).
enum Kept {
    Str(String),
    Int(u64),
    Other,
}

impl Reader<'_> {
    fn truncated(&self, what: &str) -> GgufError {
        GgufError::Truncated {
            path: self.path.to_path_buf(),
            detail: format!(
                "{what} is missing at byte {} of {} bytes",
                self.pos, self.size
            ),
        }
    }

    fn damaged(&self, detail: String) -> GgufError {
        GgufError::Damaged {
            path: self.path.to_path_buf(),
            detail,
        }
    }

    fn bytes<const N: usize>(&mut self, what: &str) -> Result<[u8; N], GgufError> {
        let mut b = [0u8; N];
        match self.inner.read_exact(&mut b) {
            Ok(()) => {
                self.pos += N as u64;
                Ok(b)
            }
            Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => Err(self.truncated(what)),
            Err(source) => Err(GgufError::Io {
                path: self.path.to_path_buf(),
                source,
            }),
        }
    }

    fn u32(&mut self, what: &str) -> Result<u32, GgufError> {
        Ok(u32::from_le_bytes(self.bytes::<4>(what)?))
    }

    fn u64(&mut self, what: &str) -> Result<u64, GgufError> {
        Ok(u64::from_le_bytes(self.bytes::<8>(what)?))
    }

    /// Moves `n` bytes forward, failing if that passes the end of the file.
    fn skip(&mut self, n: u64, what: &str) -> Result<(), GgufError> {
        if n > self.size.saturating_sub(self.pos) {
            return Err(self.truncated(what));
        }
        let off = i64::try_from(n).map_err(|_| self.truncated(what))?;
        self.inner
            .seek_relative(off)
            .map_err(|source| GgufError::Io {
                path: self.path.to_path_buf(),
                source,
            })?;
        self.pos += n;
        Ok(())
    }

    /// Reads a string if it is short enough to keep, else skips it.
    fn string(&mut self, what: &str) -> Result<Option<String>, GgufError> {
        let len = self.u64(what)?;
        if len > self.size.saturating_sub(self.pos) {
            return Err(self.truncated(what));
        }
        if len > MAX_KEPT_STRING {
            self.skip(len, what)?;
            return Ok(None);
        }
        let mut buf = vec![0u8; len as usize];
        self.inner
            .read_exact(&mut buf)
            .map_err(|e| match e.kind() {
                std::io::ErrorKind::UnexpectedEof => self.truncated(what),
                _ => GgufError::Io {
                    path: self.path.to_path_buf(),
                    source: e,
                },
            })?;
        self.pos += len;
        Ok(Some(String::from_utf8_lossy(&buf).into_owned()))
    }

    fn header(&mut self) -> Result<GgufInfo, GgufError> {
        let magic = match self.bytes::<4>("the magic number") {
            Ok(m) => m,
            Err(GgufError::Truncated { .. }) => {
                return Err(GgufError::NotGguf {
                    path: self.path.to_path_buf(),
                    found: format!("a file of {} bytes", self.size),
                })
            }
            Err(e) => return Err(e),
        };
        if &magic != MAGIC {
            return Err(GgufError::NotGguf {
                path: self.path.to_path_buf(),
                found: String::from_utf8_lossy(&magic).escape_debug().to_string(),
            });
        }
        let version = self.u32("the version")?;
        if !(2..=3).contains(&version) {
            return Err(GgufError::Version {
                path: self.path.to_path_buf(),
                version,
            });
        }
        let tensor_count = self.u64("the tensor count")?;
        let kv_count = self.u64("the metadata count")?;
        if tensor_count > MAX_ENTRIES || kv_count > MAX_ENTRIES {
            return Err(self.damaged(format!(
                "it claims {tensor_count} tensors and {kv_count} metadata entries"
            )));
        }
        let mut info = GgufInfo {
            path: self.path.to_path_buf(),
            size: self.size,
            version,
            tensor_count,
            kv_count,
            architecture: None,
            name: None,
            chat_template: None,
            context_length: None,
            quantization: None,
        };
        let mut alignment = DEFAULT_ALIGNMENT;
        let mut file_type = None;
        let mut context_lengths: Vec<(String, u64)> = Vec::new();
        for _ in 0..kv_count {
            let key = self
                .string("a metadata key")?
                .ok_or_else(|| self.damaged("a metadata key longer than 1 MB".into()))?;
            let ty = self.u32("a metadata type")?;
            match (key.as_str(), self.value(ty, &key)?) {
                ("general.architecture", Kept::Str(s)) => info.architecture = Some(s),
                ("general.name", Kept::Str(s)) => info.name = Some(s),
                ("tokenizer.chat_template", Kept::Str(s)) => info.chat_template = Some(s),
                ("general.alignment", Kept::Int(n)) => alignment = n,
                ("general.file_type", Kept::Int(n)) => file_type = Some(n),
                (k, Kept::Int(n)) if k.ends_with(".context_length") => {
                    context_lengths.push((k.to_string(), n))
                }
                _ => {}
            }
        }
        if alignment == 0 || !alignment.is_power_of_two() || alignment > 1 << 20 {
            return Err(self.damaged(format!("alignment {alignment} is not a power of two")));
        }
        if let Some(arch) = &info.architecture {
            let want = format!("{arch}.context_length");
            info.context_length = context_lengths
                .iter()
                .find(|(k, _)| *k == want)
                .map(|(_, n)| *n);
        }
        info.quantization = file_type.and_then(file_type_name).map(str::to_string);
        self.tensors(tensor_count, alignment)?;
        Ok(info)
    }

    /// Reads one metadata value of type `ty`, keeping strings and integers.
    fn value(&mut self, ty: u32, key: &str) -> Result<Kept, GgufError> {
        let what = "a metadata value";
        Ok(match ty {
            0 | 1 | 7 => Kept::Int(u64::from(self.bytes::<1>(what)?[0])),
            2 | 3 => Kept::Int(u64::from(u16::from_le_bytes(self.bytes::<2>(what)?))),
            4 | 5 => Kept::Int(u64::from(self.u32(what)?)),
            6 => {
                self.bytes::<4>(what)?;
                Kept::Other
            }
            8 => match self.string(what)? {
                Some(s) => Kept::Str(s),
                None => Kept::Other,
            },
            9 => {
                let item = self.u32("an array's type")?;
                let len = self.u64("an array's length")?;
                if len > self.size.saturating_sub(self.pos) {
                    return Err(self.truncated("an array"));
                }
                match item_width(item) {
                    Some(w) => self.skip(len.saturating_mul(w), "an array")?,
                    None if item == 8 => {
                        for _ in 0..len {
                            let n = self.u64("an array string")?;
                            self.skip(n, "an array string")?;
                        }
                    }
                    None => {
                        return Err(self.damaged(format!(
                        "metadata `{key}` is an array of type {item}, which GGUF does not define"
                    )))
                    }
                }
                Kept::Other
            }
            10 | 11 => Kept::Int(self.u64(what)?),
            12 => {
                self.u64(what)?;
                Kept::Other
            }
            _ => {
                return Err(self.damaged(format!(
                    "metadata `{key}` has type {ty}, which GGUF does not define"
                )))
            }
        })
    }

    /// Reads the tensor index and checks every tensor's data is in the file.
    fn tensors(&mut self, count: u64, alignment: u64) -> Result<(), GgufError> {
        let mut end_needed = 0u64;
        let mut start_needed = 0u64;
        for _ in 0..count {
            let name = self.string("a tensor name")?.unwrap_or_default();
            let dims = self.u32("a tensor's dimension count")?;
            if dims > 8 {
                return Err(self.damaged(format!("tensor `{name}` has {dims} dimensions")));
            }
            let mut elements = 1u64;
            for _ in 0..dims {
                elements = elements.saturating_mul(self.u64("a tensor dimension")?);
            }
            let ty = self.u32("a tensor type")?;
            let offset = self.u64("a tensor offset")?;
            start_needed = start_needed.max(offset);
            if let Some(&(_, _, block, bytes)) = TENSOR_TYPES.iter().find(|t| t.0 == ty) {
                let size = elements.div_ceil(block).saturating_mul(bytes);
                end_needed = end_needed.max(offset.saturating_add(size));
            }
        }
        let data_start = self.pos.div_ceil(alignment).saturating_mul(alignment);
        let needed = data_start.saturating_add(end_needed.max(start_needed));
        if needed > self.size {
            return Err(GgufError::Truncated {
                path: self.path.to_path_buf(),
                detail: format!(
                    "its tensors need {needed} bytes but the file has {}",
                    self.size
                ),
            });
        }
        Ok(())
    }
}

/// Bytes per item of a fixed-width metadata array type.
fn item_width(ty: u32) -> Option<u64> {
    match ty {
        0 | 1 | 7 => Some(1),
        2 | 3 => Some(2),
        4..=6 => Some(4),
        10..=12 => Some(8),
        _ => None,
    }
}

/// llama.cpp's `general.file_type` values (`llama_ftype`) by name.
const FILE_TYPES: &[(u64, &str)] = &[
    (0, "F32"),
    (1, "F16"),
    (2, "Q4_0"),
    (3, "Q4_1"),
    (7, "Q8_0"),
    (8, "Q5_0"),
    (9, "Q5_1"),
    (10, "Q2_K"),
    (11, "Q3_K_S"),
    (12, "Q3_K_M"),
    (13, "Q3_K_L"),
    (14, "Q4_K_S"),
    (15, "Q4_K_M"),
    (16, "Q5_K_S"),
    (17, "Q5_K_M"),
    (18, "Q6_K"),
    (19, "IQ2_XXS"),
    (20, "IQ2_XS"),
    (21, "Q2_K_S"),
    (22, "IQ3_XS"),
    (23, "IQ3_XXS"),
    (24, "IQ1_S"),
    (25, "IQ4_NL"),
    (26, "IQ3_S"),
    (27, "IQ3_M"),
    (28, "IQ2_S"),
    (29, "IQ2_M"),
    (30, "IQ4_XS"),
    (31, "IQ1_M"),
    (32, "BF16"),
    (36, "TQ1_0"),
    (37, "TQ2_0"),
    (38, "MXFP4_MOE"),
];

fn file_type_name(n: u64) -> Option<&'static str> {
    FILE_TYPES.iter().find(|(k, _)| *k == n).map(|(_, v)| *v)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// Writes a small but well-formed GGUF file: `kvs` string entries, one
    /// F32 tensor of `elements`, data included.
    pub(crate) fn tiny(kvs: &[(&str, &str)], elements: u64) -> Vec<u8> {
        let mut b = Vec::new();
        b.extend_from_slice(MAGIC);
        b.extend_from_slice(&3u32.to_le_bytes());
        b.extend_from_slice(&1u64.to_le_bytes());
        b.extend_from_slice(&(kvs.len() as u64 + 1).to_le_bytes());
        for (k, v) in kvs {
            b.extend_from_slice(&(k.len() as u64).to_le_bytes());
            b.extend_from_slice(k.as_bytes());
            b.extend_from_slice(&8u32.to_le_bytes());
            b.extend_from_slice(&(v.len() as u64).to_le_bytes());
            b.extend_from_slice(v.as_bytes());
        }
        // An array of strings, skipped by length.
        let key = "tokenizer.ggml.tokens";
        b.extend_from_slice(&(key.len() as u64).to_le_bytes());
        b.extend_from_slice(key.as_bytes());
        b.extend_from_slice(&9u32.to_le_bytes());
        b.extend_from_slice(&8u32.to_le_bytes());
        b.extend_from_slice(&2u64.to_le_bytes());
        for t in ["a", "bc"] {
            b.extend_from_slice(&(t.len() as u64).to_le_bytes());
            b.extend_from_slice(t.as_bytes());
        }
        let name = "w";
        b.extend_from_slice(&(name.len() as u64).to_le_bytes());
        b.extend_from_slice(name.as_bytes());
        b.extend_from_slice(&1u32.to_le_bytes());
        b.extend_from_slice(&elements.to_le_bytes());
        b.extend_from_slice(&0u32.to_le_bytes());
        b.extend_from_slice(&0u64.to_le_bytes());
        while b.len() % 32 != 0 {
            b.push(0);
        }
        b.extend(std::iter::repeat_n(0u8, (elements * 4) as usize));
        b
    }

    fn write(bytes: &[u8]) -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().expect("tempdir");
        let p = dir.path().join("m.gguf");
        std::fs::write(&p, bytes).expect("write");
        (dir, p)
    }

    #[test]
    fn a_well_formed_file_is_read() {
        let bytes = tiny(
            &[
                ("general.architecture", "llama"),
                ("tokenizer.chat_template", "{{x}}"),
            ],
            64,
        );
        let (_d, p) = write(&bytes);
        let info = read(&p).expect("valid");
        assert_eq!(info.architecture.as_deref(), Some("llama"));
        assert_eq!(info.chat_template.as_deref(), Some("{{x}}"));
        assert_eq!(info.tensor_count, 1);
        assert_eq!(info.size, bytes.len() as u64);
    }

    #[test]
    fn every_cut_of_a_file_is_truncated_or_not_gguf() {
        let bytes = tiny(&[("general.architecture", "llama")], 64);
        for cut in 0..bytes.len() {
            let (_d, p) = write(&bytes[..cut]);
            match read(&p) {
                Err(GgufError::Truncated { .. }) if cut >= 4 => {}
                Err(GgufError::NotGguf { .. }) if cut < 4 => {}
                other => panic!("cut at {cut}: {other:?}"),
            }
        }
    }

    #[test]
    fn other_files_and_hostile_headers_are_refused() {
        let (_d, p) = write(b"PK\x03\x04 a zip, not a model");
        assert!(matches!(read(&p), Err(GgufError::NotGguf { .. })));
        let mut v1 = tiny(&[], 8);
        v1[4..8].copy_from_slice(&1u32.to_le_bytes());
        let (_d2, p2) = write(&v1);
        assert!(matches!(
            read(&p2),
            Err(GgufError::Version { version: 1, .. })
        ));
        // A string length far past the end of the file: refused without allocating it.
        let mut huge = tiny(&[("general.architecture", "llama")], 8);
        huge[24..32].copy_from_slice(&u64::MAX.to_le_bytes());
        let (_d3, p3) = write(&huge);
        assert!(matches!(read(&p3), Err(GgufError::Truncated { .. })));
        // Billions of entries claimed: refused at once.
        let mut many = tiny(&[], 8);
        many[16..24].copy_from_slice(&u64::MAX.to_le_bytes());
        let (_d4, p4) = write(&many);
        assert!(matches!(read(&p4), Err(GgufError::Damaged { .. })));
        let dir = tempfile::tempdir().expect("tempdir");
        assert!(matches!(read(dir.path()), Err(GgufError::Io { .. })));
        assert!(matches!(
            read(&dir.path().join("absent.gguf")),
            Err(GgufError::Io { .. })
        ));
    }
}
