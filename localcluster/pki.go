package main

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/csv"
	"encoding/hex"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"time"
)

// credentials are the files a cluster directory keeps across restarts, so
// that a kubeconfig written by one run keeps working against the next.
type credentials struct {
	caCert      []byte // PEM of the CA that signed the serving certificate
	servingCert string // path
	servingKey  string // path
	saKey       string // path of the service-account signing key
	tokenFile   string // path of the static token CSV
	adminToken  string
	viewerToken string
}

const (
	adminUser  = "kedit-admin"
	viewerUser = "kedit-viewer"
)

// ensureCredentials creates the CA, the serving certificate, the
// service-account key and the tokens in dir, or loads them when a previous
// run already created them.
func ensureCredentials(dir string) (*credentials, error) {
	c := &credentials{
		servingCert: filepath.Join(dir, "serving.crt"),
		servingKey:  filepath.Join(dir, "serving.key"),
		saKey:       filepath.Join(dir, "service-account.key"),
		tokenFile:   filepath.Join(dir, "tokens.csv"),
	}
	caCertPath := filepath.Join(dir, "ca.crt")
	caKeyPath := filepath.Join(dir, "ca.key")

	if !allExist(caCertPath, caKeyPath, c.servingCert, c.servingKey, c.saKey) {
		if err := createPKI(caCertPath, caKeyPath, c.servingCert, c.servingKey, c.saKey); err != nil {
			return nil, err
		}
	}
	caPEM, err := os.ReadFile(caCertPath)
	if err != nil {
		return nil, err
	}
	c.caCert = caPEM

	if err := c.ensureTokens(); err != nil {
		return nil, err
	}
	return c, nil
}

func allExist(paths ...string) bool {
	for _, p := range paths {
		if _, err := os.Stat(p); err != nil {
			return false
		}
	}
	return true
}

func createPKI(caCertPath, caKeyPath, certPath, keyPath, saKeyPath string) error {
	now := time.Now()
	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return err
	}
	caTmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: "localcluster-ca"},
		NotBefore:             now.Add(-time.Hour),
		NotAfter:              now.Add(10 * 365 * 24 * time.Hour),
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
		BasicConstraintsValid: true,
		IsCA:                  true,
	}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	if err != nil {
		return err
	}
	caCert, err := x509.ParseCertificate(caDER)
	if err != nil {
		return err
	}

	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return err
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(2),
		Subject:      pkix.Name{CommonName: "kube-apiserver"},
		NotBefore:    now.Add(-time.Hour),
		NotAfter:     now.Add(10 * 365 * 24 * time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature | x509.KeyUsageKeyEncipherment,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		DNSNames:     []string{"localhost", "kubernetes", "kubernetes.default", "kubernetes.default.svc"},
		IPAddresses:  []net.IP{net.ParseIP("127.0.0.1"), net.ParseIP("::1"), net.ParseIP("10.0.0.1")},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, caCert, &key.PublicKey, caKey)
	if err != nil {
		return err
	}

	saKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return err
	}

	if err := writePEM(caKeyPath, "EC PRIVATE KEY", mustMarshalEC(caKey), 0o600); err != nil {
		return err
	}
	if err := writePEM(keyPath, "EC PRIVATE KEY", mustMarshalEC(key), 0o600); err != nil {
		return err
	}
	if err := writePEM(saKeyPath, "EC PRIVATE KEY", mustMarshalEC(saKey), 0o600); err != nil {
		return err
	}
	if err := writePEM(certPath, "CERTIFICATE", der, 0o644); err != nil {
		return err
	}
	// The CA certificate last: its presence marks the set as complete.
	return writePEM(caCertPath, "CERTIFICATE", caDER, 0o644)
}

func mustMarshalEC(k *ecdsa.PrivateKey) []byte {
	b, err := x509.MarshalECPrivateKey(k)
	if err != nil {
		panic(err) // only fails for curves Go does not support
	}
	return b
}

func writePEM(path, typ string, der []byte, mode os.FileMode) error {
	return writeFileAtomic(path, pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der}), mode)
}

// ensureTokens reads the static token file, or writes one with a fresh
// token for the admin (system:masters) and one for the viewer, who belongs to
// no group and so has no RBAC rights beyond what every authenticated user has.
func (c *credentials) ensureTokens() error {
	if f, err := os.Open(c.tokenFile); err == nil {
		r := csv.NewReader(f)
		r.FieldsPerRecord = -1
		records, err := r.ReadAll()
		f.Close()
		if err != nil {
			return fmt.Errorf("reading %s: %w", c.tokenFile, err)
		}
		for _, rec := range records {
			if len(rec) < 2 {
				continue
			}
			switch rec[1] {
			case adminUser:
				c.adminToken = rec[0]
			case viewerUser:
				c.viewerToken = rec[0]
			}
		}
		if c.adminToken != "" && c.viewerToken != "" {
			return nil
		}
	} else if !errors.Is(err, os.ErrNotExist) {
		return err
	}
	c.adminToken, c.viewerToken = randomToken(), randomToken()
	content := fmt.Sprintf("%s,%s,%s,\"system:masters\"\n%s,%s,%s\n",
		c.adminToken, adminUser, adminUser, c.viewerToken, viewerUser, viewerUser)
	return writeFileAtomic(c.tokenFile, []byte(content), 0o600)
}

func randomToken() string {
	b := make([]byte, 24)
	if _, err := rand.Read(b); err != nil {
		panic(err) // crypto/rand never fails on Linux
	}
	return hex.EncodeToString(b)
}

// writeFileAtomic writes data to a temporary file in path's directory and
// renames it over path, so that readers never see a partial file.
func writeFileAtomic(path string, data []byte, mode os.FileMode) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer os.Remove(tmp) // no-op after a successful rename
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Chmod(mode); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
