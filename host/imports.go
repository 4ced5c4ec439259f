package host

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"io"
	"strconv"
	"strings"

	extism "github.com/extism/go-sdk"
	"github.com/pi-memory/pi-memory/wasm/hostio"
	"github.com/tetratelabs/wazero/api"
)

// namespace is where the core looks for its imports.
const namespace = "extism:host/user"

const (
	i32 = api.ValueTypeI32
	i64 = api.ValueTypeI64
)

// hostFunctions are the contract's imports. They are registered once per
// compiled module and find their Instance in the call's context, so every
// instance keeps its own FS, clock and pm_last_error.
func hostFunctions() []extism.HostFunction {
	return []extism.HostFunction{
		fn("pm_fs_read", []api.ValueType{i32, i32, i64, i32, i32}, []api.ValueType{i64}, (*Instance).pmRead),
		fn("pm_fs_stat", []api.ValueType{i32, i32, i32}, []api.ValueType{i32}, (*Instance).pmStat),
		fn("pm_fs_lstat", []api.ValueType{i32, i32, i32}, []api.ValueType{i32}, (*Instance).pmLstat),
		fn("pm_fs_append", []api.ValueType{i32, i32, i32, i32}, []api.ValueType{i32}, (*Instance).pmAppend),
		fn("pm_fs_write_atomic", []api.ValueType{i32, i32, i32, i32}, []api.ValueType{i32}, (*Instance).pmWriteAtomic),
		fn("pm_fs_list", []api.ValueType{i32, i32, i32, i32}, []api.ValueType{i64}, (*Instance).pmList),
		fn("pm_fs_mkdir", []api.ValueType{i32, i32}, []api.ValueType{i32}, (*Instance).pmMkdir),
		fn("pm_fs_remove", []api.ValueType{i32, i32}, []api.ValueType{i32}, (*Instance).pmRemove),
		fn("pm_fs_rename", []api.ValueType{i32, i32, i32, i32}, []api.ValueType{i32}, (*Instance).pmRename),
		fn("pm_lock", []api.ValueType{i32, i32, i32, i32}, []api.ValueType{i32}, (*Instance).pmLock),
		fn("pm_unlock", []api.ValueType{i32, i32}, []api.ValueType{i32}, (*Instance).pmUnlock),
		fn("pm_now", nil, []api.ValueType{i64}, (*Instance).pmNow),
		fn("pm_random", []api.ValueType{i32, i32}, []api.ValueType{i32}, (*Instance).pmRandom),
		fn("pm_log", []api.ValueType{i32, i32, i32}, nil, (*Instance).pmLog),
		fn("pm_last_error", []api.ValueType{i32, i32}, []api.ValueType{i32}, (*Instance).pmLastError),
		fn("pm_input", []api.ValueType{i32, i32}, []api.ValueType{i64}, (*Instance).pmInput),
		fn("pm_output", []api.ValueType{i32, i32}, []api.ValueType{i32}, (*Instance).pmOutput),
	}
}

func fn(name string, params, results []api.ValueType, impl func(*Instance, []uint64)) extism.HostFunction {
	f := extism.NewHostFunctionWithStack(name, func(ctx context.Context, _ *extism.CurrentPlugin, stack []uint64) {
		i, ok := ctx.Value(instanceKey{}).(*Instance)
		if !ok {
			panic("host: " + name + " called outside Instance.Call")
		}
		impl(i, stack)
	}, params, results)
	f.SetNamespace(namespace)
	return f
}

// guest returns a view of guest memory; writes to it land in the module.
func (i *Instance) guest(what string, ptr, n uint32) ([]byte, error) {
	b, ok := i.mem.Read(ptr, n)
	if !ok {
		return nil, &hostio.PathError{Op: what, Err: hostio.ErrInvalid,
			Msg: what + ": guest range [" + strconv.FormatUint(uint64(ptr), 10) + ", " +
				strconv.FormatUint(uint64(ptr)+uint64(n), 10) + ") is outside the module's " +
				strconv.FormatUint(uint64(i.mem.Size()), 10) + "-byte memory"}
	}
	return b, nil
}

func (i *Instance) path(ptr, n uint32) (string, error) {
	b, err := i.guest("path", ptr, n)
	if err != nil {
		return "", err
	}
	return string(b), nil
}

// fail records err for pm_last_error and returns its contract code. The
// message is the host's own words only: the core already prefixes the
// operation and path.
func (i *Instance) fail(err error) int64 {
	var pe *hostio.PathError
	if errors.As(err, &pe) && pe.Msg != "" {
		i.lastErr = pe.Msg
	} else {
		i.lastErr = err.Error()
	}
	return hostio.CodeForError(err)
}

func u32(v uint64) uint32 { return api.DecodeU32(v) }

func (i *Instance) result32(stack []uint64, err error) {
	if err != nil {
		stack[0] = api.EncodeI32(int32(i.fail(err)))
		return
	}
	stack[0] = 0
}

func (i *Instance) pmRead(stack []uint64) {
	p, err := i.path(u32(stack[0]), u32(stack[1]))
	if err == nil {
		var dst []byte
		if dst, err = i.guest("read buffer", u32(stack[3]), u32(stack[4])); err == nil {
			var n int
			if n, err = i.cfg.FS.ReadAt(p, int64(stack[2]), dst); err == nil {
				stack[0] = api.EncodeI64(int64(n))
				return
			}
		}
	}
	stack[0] = api.EncodeI64(i.fail(err))
}

func (i *Instance) pmStat(stack []uint64)  { i.stat(stack, i.cfg.FS.Stat) }
func (i *Instance) pmLstat(stack []uint64) { i.stat(stack, i.cfg.FS.Lstat) }

// stat writes the record both stat imports share, little-endian: size u64,
// mtime ms u64, kind u32 (hostio.Kind: 0 other, 1 file, 2 folder, 3 link)
// and the file's identity u32 (hostio.FileID; 0 unknown).
func (i *Instance) stat(stack []uint64, stat func(string) (hostio.FileInfo, error)) {
	p, err := i.path(u32(stack[0]), u32(stack[1]))
	if err != nil {
		i.result32(stack, err)
		return
	}
	out, err := i.guest("stat buffer", u32(stack[2]), 24)
	if err != nil {
		i.result32(stack, err)
		return
	}
	fi, err := stat(p)
	if err != nil {
		i.result32(stack, err)
		return
	}
	binary.LittleEndian.PutUint64(out[0:8], uint64(fi.Size))
	binary.LittleEndian.PutUint64(out[8:16], uint64(fi.MtimeMs))
	binary.LittleEndian.PutUint32(out[16:20], uint32(fi.Kind))
	binary.LittleEndian.PutUint32(out[20:24], fi.ID)
	i.result32(stack, nil)
}

func (i *Instance) pmAppend(stack []uint64) {
	i.pathData(stack, i.cfg.FS.Append)
}

func (i *Instance) pmWriteAtomic(stack []uint64) {
	i.pathData(stack, i.cfg.FS.WriteAtomic)
}

func (i *Instance) pathData(stack []uint64, op func(string, []byte) error) {
	p, err := i.path(u32(stack[0]), u32(stack[1]))
	if err == nil {
		var data []byte
		if data, err = i.guest("data", u32(stack[2]), u32(stack[3])); err == nil {
			err = op(p, data)
		}
	}
	i.result32(stack, err)
}

// pmList returns the full length of "name\n"… and writes it only if it
// fits, so the core can retry with a buffer of that size.
func (i *Instance) pmList(stack []uint64) {
	p, err := i.path(u32(stack[0]), u32(stack[1]))
	if err == nil {
		var dst []byte
		if dst, err = i.guest("list buffer", u32(stack[2]), u32(stack[3])); err == nil {
			var names []string
			if names, err = i.cfg.FS.List(p); err == nil {
				var b strings.Builder
				for _, n := range names {
					b.WriteString(n)
					b.WriteByte('\n')
				}
				if b.Len() <= len(dst) {
					copy(dst, b.String())
				}
				stack[0] = api.EncodeI64(int64(b.Len()))
				return
			}
		}
	}
	stack[0] = api.EncodeI64(i.fail(err))
}

func (i *Instance) pmMkdir(stack []uint64)  { i.pathOnly(stack, i.cfg.FS.Mkdir) }
func (i *Instance) pmRemove(stack []uint64) { i.pathOnly(stack, i.cfg.FS.Remove) }
func (i *Instance) pmUnlock(stack []uint64) { i.pathOnly(stack, i.cfg.FS.Unlock) }

func (i *Instance) pmRename(stack []uint64) {
	from, err := i.path(u32(stack[0]), u32(stack[1]))
	if err == nil {
		var to string
		if to, err = i.path(u32(stack[2]), u32(stack[3])); err == nil {
			err = i.cfg.FS.Rename(from, to)
		}
	}
	i.result32(stack, err)
}

func (i *Instance) pathOnly(stack []uint64, op func(string) error) {
	p, err := i.path(u32(stack[0]), u32(stack[1]))
	if err == nil {
		err = op(p)
	}
	i.result32(stack, err)
}

// pmLock reads the times as signed, so a negative int from the core is
// rejected rather than read as a wait of seven weeks.
func (i *Instance) pmLock(stack []uint64) {
	p, err := i.path(u32(stack[0]), u32(stack[1]))
	if err == nil {
		err = i.cfg.FS.Lock(p, int(api.DecodeI32(stack[2])), int(api.DecodeI32(stack[3])))
	}
	i.result32(stack, err)
}

func (i *Instance) pmNow(stack []uint64) {
	stack[0] = api.EncodeI64(i.cfg.Clock.Now().UnixMilli())
}

func (i *Instance) pmRandom(stack []uint64) {
	dst, err := i.guest("random buffer", u32(stack[0]), u32(stack[1]))
	if err == nil {
		if _, rerr := io.ReadFull(i.cfg.Random, dst); rerr != nil {
			err = &hostio.PathError{Op: "random", Err: hostio.ErrIO, Msg: "random source failed: " + rerr.Error()}
		}
	}
	i.result32(stack, err)
}

func (i *Instance) pmLog(stack []uint64) {
	level := int(api.DecodeI32(stack[0]))
	level = max(int(hostio.Debug), min(level, int(hostio.Error)))
	msg, err := i.guest("log message", u32(stack[1]), u32(stack[2]))
	if err != nil {
		i.fail(err)
		return
	}
	i.cfg.Log(level, string(msg))
}

// pmLastError writes as much of the message as fits and returns its full
// length.
func (i *Instance) pmLastError(stack []uint64) {
	dst, err := i.guest("error buffer", u32(stack[0]), u32(stack[1]))
	if err != nil {
		stack[0] = api.EncodeI32(hostio.CodeInvalid)
		return
	}
	copy(dst, i.lastErr)
	stack[0] = api.EncodeI32(int32(len(i.lastErr)))
}

// pmInput copies the input of the call in progress into the guest when it
// fits, and returns its full length: a large input arrives in one host
// call rather than Extism's one per 8 bytes.
func (i *Instance) pmInput(stack []uint64) {
	n := uint32(len(i.input))
	if n > 0 && n <= u32(stack[1]) {
		dst, err := i.guest("input buffer", u32(stack[0]), n)
		if err != nil {
			stack[0] = api.EncodeI64(i.fail(err))
			return
		}
		copy(dst, i.input)
	}
	stack[0] = api.EncodeI64(int64(n))
}

// pmOutput takes the envelope of the call in progress from the guest, a
// copy made at once.
func (i *Instance) pmOutput(stack []uint64) {
	b, err := i.guest("envelope", u32(stack[0]), u32(stack[1]))
	if err != nil {
		stack[0] = api.EncodeI32(int32(i.fail(err)))
		return
	}
	i.output = bytes.Clone(b)
	stack[0] = 0
}
