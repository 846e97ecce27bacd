package grundyrt

import (
	"bytes"
	"encoding/xml"
	"reflect"
	"strings"
)

// encoding/xml names an element it writes for a value at the top (not a
// field's) by the value's type: xml.Marshal(Item{...}) is <Item ...>.
// yaegi v0.16.1 builds the struct types cells declare with
// reflect.StructOf (interp/type.go, refType), which makes them unnamed,
// and encoding/xml refuses an unnamed struct without an XMLName field
// ("xml: unsupported type: struct { N int ... }"). XMLMarshal,
// XMLMarshalIndent and XMLEncode encode such a value with
// Encoder.EncodeElement under the name its type carries (see
// structName), and everything else as encoding/xml does: pointers and
// interfaces followed, each element of a slice or array (not []byte) one
// top-level value.

// XMLMarshal is xml.Marshal(v).
func XMLMarshal(v any) ([]byte, error) {
	return XMLMarshalIndent(v, "", "")
}

// XMLMarshalIndent is xml.MarshalIndent(v, prefix, indent).
func XMLMarshalIndent(v any, prefix, indent string) ([]byte, error) {
	var b bytes.Buffer
	enc := xml.NewEncoder(&b)
	enc.Indent(prefix, indent)
	if err := XMLEncode(enc, v); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// XMLEncode is enc.Encode(v).
func XMLEncode(enc *xml.Encoder, v any) error {
	if err := xmlTop(enc, reflect.ValueOf(unwrapped(v))); err != nil {
		return err
	}
	return enc.Flush()
}

// xmlTop encodes v as a top-level value, as encoding/xml's marshalValue
// does before it looks at v's type's name.
func xmlTop(enc *xml.Encoder, v reflect.Value) error {
	for v.IsValid() && (v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface) {
		if v.IsNil() {
			return nil
		}
		if v.Kind() == reflect.Interface {
			v = reflect.ValueOf(unwrapped(v.Interface()))
			continue
		}
		if name := xmlName(v.Elem().Type()); name != "" {
			return enc.EncodeElement(v.Interface(), xml.StartElement{Name: xml.Name{Local: name}})
		}
		v = v.Elem()
	}
	if !v.IsValid() {
		return nil
	}
	switch v.Kind() {
	case reflect.Slice, reflect.Array:
		if v.Type().Elem().Kind() != reflect.Uint8 {
			for i := range v.Len() {
				if err := xmlTop(enc, v.Index(i)); err != nil {
					return err
				}
			}
			return nil
		}
	case reflect.Struct:
		if name := xmlName(v.Type()); name != "" {
			return enc.EncodeElement(v.Interface(), xml.StartElement{Name: xml.Name{Local: name}})
		}
	}
	return enc.Encode(v.Interface())
}

// xmlName is the element name Go gives a value of rt, a struct type a
// cell declared without an XMLName field (Item for main.Item); "" for
// other types, which encoding/xml names itself.
func xmlName(rt reflect.Type) string {
	name := structName(rt)
	if name == "" {
		return ""
	}
	if _, ok := rt.FieldByName("XMLName"); ok {
		return ""
	}
	base, args, _ := strings.Cut(name, "[")
	if i := strings.LastIndexByte(base, '.'); i >= 0 {
		base = base[i+1:]
	}
	if args != "" {
		return base + "[" + args
	}
	return base
}
